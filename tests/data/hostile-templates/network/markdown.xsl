<?xml version="1.0" encoding="UTF-8"?>
<!-- A hostile template (tests/cli/faults.sh): it tries to fetch a URL into
     the report. Network access is forbidden, so it must fail. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:output method="text"/>
  <xsl:template match="/">
    <xsl:text>report&#10;</xsl:text>
    <xsl:copy-of select="document('http://127.0.0.1:9/secret')"/>
  </xsl:template>
</xsl:stylesheet>
