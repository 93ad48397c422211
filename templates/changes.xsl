<?xml version="1.0" encoding="UTF-8"?>
<!-- changes.xsl: changes.md, what changed since the baseline a run compares with,
     in Markdown, from the <changes> that results/compare.c adds to the overview
     tree (its shape: src/results/compare.h). Every number printed here is a
     *-text attribute of the tree; text from the inputs goes through rc:md(). -->
<xsl:stylesheet version="1.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:rc="urn:roofcast"
    extension-element-prefixes="rc">
  <xsl:output method="text" encoding="UTF-8"/>

  <xsl:variable name="nl" select="'&#10;'"/>

  <xsl:template match="/">
    <xsl:apply-templates select="/roofcast-results/changes"/>
  </xsl:template>

  <xsl:template match="changes">
    <xsl:value-of select="concat('# Changes since the baseline', $nl, $nl)"/>
    <xsl:value-of select="concat('Baseline: ', rc:md(@baseline), $nl, $nl)"/>
    <xsl:choose>
      <xsl:when test="not(node())">
        <xsl:text>No changes: every kernel, GPU and estimate is as in the baseline.</xsl:text>
        <xsl:value-of select="$nl"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:call-template name="list">
          <xsl:with-param name="title" select="'Kernels added'"/>
          <xsl:with-param name="entries" select="kernel-added"/>
        </xsl:call-template>
        <xsl:call-template name="list">
          <xsl:with-param name="title" select="'Kernels removed'"/>
          <xsl:with-param name="entries" select="kernel-removed"/>
        </xsl:call-template>
        <xsl:call-template name="list">
          <xsl:with-param name="title" select="'GPUs added'"/>
          <xsl:with-param name="entries" select="gpu-added"/>
        </xsl:call-template>
        <xsl:call-template name="list">
          <xsl:with-param name="title" select="'GPUs removed'"/>
          <xsl:with-param name="entries" select="gpu-removed"/>
        </xsl:call-template>
        <xsl:apply-templates select="kernel"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- "## Kernels added" and the like, each entry "- name (id)"; nothing
       for a kind with no entries. -->
  <xsl:template name="list">
    <xsl:param name="title"/>
    <xsl:param name="entries"/>
    <xsl:if test="$entries">
      <xsl:value-of select="concat('## ', $title, $nl, $nl)"/>
      <xsl:for-each select="$entries">
        <xsl:value-of select="concat('- ', rc:md(@name), ' (', rc:md(@id), ')', $nl)"/>
      </xsl:for-each>
      <xsl:value-of select="$nl"/>
    </xsl:if>
  </xsl:template>

  <!-- A changed kernel: its name, the inputs that changed, then the table
       of the estimates that moved. -->
  <xsl:template match="kernel">
    <xsl:value-of select="concat('## ', rc:md(@name), $nl, $nl)"/>
    <xsl:if test="input">
      <xsl:value-of select="concat('Inputs that changed:', $nl, $nl)"/>
      <!-- "- kind [gpu] name: old → new" -->
      <xsl:for-each select="input">
        <xsl:value-of select="concat('- ', rc:md(@kind), ' ')"/>
        <xsl:if test="@gpu">
          <xsl:value-of select="concat(rc:md(@gpu), ' ')"/>
        </xsl:if>
        <xsl:value-of select="concat(rc:md(@name), ': ', rc:md(@old), ' → ', rc:md(@new), $nl)"/>
      </xsl:for-each>
      <xsl:value-of select="$nl"/>
    </xsl:if>
    <xsl:if test="estimate">
      <xsl:value-of select="concat('| GPU | Estimate | Old (µs) | New (µs) | Change |', $nl,
                                   '| --- | --- | ---: | ---: | ---: |', $nl)"/>
      <!-- The quantity is ours (t_total), written as everywhere else. -->
      <xsl:for-each select="estimate">
        <xsl:value-of select="concat('| ', rc:md(@gpu-name), ' | ', @quantity, ' | ', @old-text,
                                     ' | ', @new-text, ' | ', @percent-text, ' |', $nl)"/>
      </xsl:for-each>
      <xsl:value-of select="$nl"/>
    </xsl:if>
  </xsl:template>
</xsl:stylesheet>
