<?xml version="1.0" encoding="UTF-8"?>
<!-- html-gpus.xsl: the GPUs' figures as an HTML table with their sources,
     included by html.xsl (a report's section 2) and index.xsl. An assumed
     figure (origin="assumed": roofcast's default where a GPU file gives
     none) is tagged "assumed" in its cell and said, with what it assumes,
     under the sources. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:rc="urn:roofcast" exclude-result-prefixes="rc">

  <!-- The GPUs' assumed figures by name, in document order: a lookup in
       place of searching the figures of every GPU for each. Both callers
       pass every GPU (/roofcast-results/gpus/gpu) as `gpus`. -->
  <xsl:key name="assumed-figure" match="/roofcast-results/gpus/gpu/figure[@origin = 'assumed']"
           use="@name"/>

  <!-- The table of `gpus` and, when `sources` is true, each GPU's source. -->
  <xsl:template name="gpu-figures">
    <xsl:param name="gpus"/>
    <xsl:param name="sources" select="true()"/>
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">GPU</th><th scope="col">Architecture</th>
            <th scope="col" class="num">FP32 peak</th><th scope="col" class="num">Bandwidth</th>
            <th scope="col" class="num">Ridge point</th><th scope="col" class="num">Launch latency</th>
          </tr>
        </thead>
        <tbody>
          <xsl:for-each select="$gpus">
            <tr>
              <td><xsl:value-of select="@name"/></td>
              <td><xsl:value-of select="architecture"/></td>
              <xsl:apply-templates select="rc:figures(., 'peak-fp32')" mode="cell"/>
              <xsl:apply-templates select="rc:figures(., 'bandwidth')" mode="cell"/>
              <xsl:apply-templates select="rc:figures(., 'ridge')" mode="cell"/>
              <xsl:apply-templates select="rc:figures(., 'launch-latency')" mode="cell"/>
            </tr>
          </xsl:for-each>
        </tbody>
      </table>
    </div>
    <xsl:if test="$sources">
      <p>Sources of the figures:</p>
      <ul>
        <xsl:for-each select="$gpus">
          <li><xsl:value-of select="@name"/>: <xsl:value-of select="source"/></li>
        </xsl:for-each>
      </ul>
    </xsl:if>
    <xsl:if test="$gpus/figure[@origin = 'assumed']">
      <ul class="assumed">
        <xsl:apply-templates select="$gpus/figure[@origin = 'assumed']" mode="assumed">
          <xsl:with-param name="gpus" select="$gpus"/>
        </xsl:apply-templates>
      </ul>
    </xsl:if>
  </xsl:template>

  <!-- A GPU figure in a table cell, tagged when it is assumed. -->
  <xsl:template match="figure" mode="cell">
    <td class="num">
      <xsl:value-of select="@value-text"/>
      <xsl:if test="@origin = 'assumed'"><span class="tag">assumed</span></xsl:if>
    </td>
  </xsl:template>

  <!-- The assumed figures, an item per figure name, made on the first GPU
       that assumes it. -->
  <xsl:template match="figure" mode="assumed">
    <xsl:param name="gpus"/>
    <xsl:variable name="name" select="@name"/>
    <xsl:if test="generate-id() = generate-id(key('assumed-figure', $name)[1])">
      <li>
        <xsl:value-of select="concat(@label, ', ')"/>
        <xsl:call-template name="assumed-where">
          <xsl:with-param name="gpus" select="$gpus"/>
        </xsl:call-template>
        <xsl:text>, is </xsl:text>
        <strong>assumed</strong>
        <xsl:value-of select="concat(': ', @source, '. It stands for ', @assumption, '.')"/>
      </li>
    </xsl:if>
  </xsl:template>

  <!-- "5 µs on every GPU", "5 µs on A and B", or "A: 5 µs and B: 6 µs" for
       the assumed figures named like the context node. -->
  <xsl:template name="assumed-where">
    <xsl:param name="gpus"/>
    <xsl:variable name="name" select="@name"/>
    <xsl:variable name="all" select="key('assumed-figure', $name)"/>
    <xsl:variable name="value" select="@value-text"/>
    <xsl:choose>
      <xsl:when test="count($all[@value-text = $value]) != count($all)">
        <xsl:for-each select="$all">
          <xsl:call-template name="list-separator"/>
          <xsl:value-of select="concat(../@name, ': ', @value-text)"/>
        </xsl:for-each>
      </xsl:when>
      <xsl:when test="count($all) = count($gpus) and count($gpus) &gt; 1">
        <xsl:value-of select="concat($value, ' on every GPU')"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:value-of select="concat($value, ' on ')"/>
        <xsl:for-each select="$all">
          <xsl:call-template name="list-separator"/>
          <xsl:value-of select="../@name"/>
        </xsl:for-each>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- Before an item of "a", "a and b", "a, b and c" (in a for-each). -->
  <xsl:template name="list-separator">
    <xsl:if test="position() &gt; 1">
      <xsl:choose>
        <xsl:when test="position() = last()"> and </xsl:when>
        <xsl:otherwise>, </xsl:otherwise>
      </xsl:choose>
    </xsl:if>
  </xsl:template>
</xsl:stylesheet>
