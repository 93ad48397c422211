<?xml version="1.0" encoding="UTF-8"?>
<!-- A hostile template (tests/cli/faults.sh): it tries to read /etc/passwd
     and a URL into the report and to write a file of its own. roofcast runs
     templates with file and network access forbidden, so it must fail and
     leak nothing. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:exsl="http://exslt.org/common" extension-element-prefixes="exsl">
  <xsl:output method="text"/>
  <xsl:param name="kernel-id"/>
  <xsl:template match="/">
    <xsl:text>report of </xsl:text>
    <xsl:value-of select="$kernel-id"/>
    <xsl:text>&#10;</xsl:text>
    <xsl:value-of select="document('/etc/passwd')"/>
    <xsl:copy-of select="document('file:///etc/passwd')"/>
    <xsl:copy-of select="document('http://127.0.0.1:9/secret')"/>
    <exsl:document href="pwned.txt" method="text">pwned</exsl:document>
    <xsl:text>end&#10;</xsl:text>
  </xsl:template>
</xsl:stylesheet>
