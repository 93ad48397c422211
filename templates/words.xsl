<?xml version="1.0" encoding="UTF-8"?>
<!-- words.xsl: counts in words that agree with their numbers ("1 block",
     "once", "at most once per thread"), included by markdown.xsl and
     html.xsl. Each takes an attribute of the tree, reads its value for the
     grammar and prints its *-text form. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:rc="urn:roofcast" exclude-result-prefixes="rc">

  <!-- The shown form of attribute $a: its sibling $a-text, that is
       $a/../@*[name() = concat(name($a), '-text')] (rc:shown finds it
       without a string for every attribute's name). -->
  <xsl:template name="shown">
    <xsl:param name="a"/>
    <xsl:value-of select="rc:shown($a)"/>
  </xsl:template>

  <!-- "3" or "3 to 4": two *-text forms, the second left out when the same. -->
  <xsl:template name="range">
    <xsl:param name="lo"/>
    <xsl:param name="hi"/>
    <xsl:value-of select="$lo"/>
    <xsl:if test="$lo != $hi">
      <xsl:value-of select="concat(' to ', $hi)"/>
    </xsl:if>
  </xsl:template>

  <!-- "1 block", "25 blocks". -->
  <xsl:template name="count">
    <xsl:param name="a"/>
    <xsl:param name="one"/>
    <xsl:param name="many" select="concat($one, 's')"/>
    <xsl:value-of select="rc:shown($a)"/> <!-- the template "shown", without a call -->
    <xsl:choose>
      <xsl:when test="$a = 1"><xsl:value-of select="concat(' ', $one)"/></xsl:when>
      <xsl:otherwise><xsl:value-of select="concat(' ', $many)"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- "once", "25,600 times". -->
  <xsl:template name="times">
    <xsl:param name="a"/>
    <xsl:choose>
      <xsl:when test="$a = 1">once</xsl:when>
      <xsl:otherwise>
        <xsl:call-template name="shown">
          <xsl:with-param name="a" select="$a"/>
        </xsl:call-template>
        <xsl:text> times</xsl:text>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- A spread per thread and per block of the context node's second
       measure, $unit being 'times' or 'iterations': "at most once per
       thread, 0 to 160 per block", "3 to 4 iterations per thread, 3,200
       per block", "1 iteration per thread, 1 per block". -->
  <xsl:template name="spread">
    <xsl:param name="unit"/>
    <xsl:variable name="lo" select="@per-thread-min"/>
    <xsl:variable name="hi" select="@per-thread-max"/>
    <xsl:choose>
      <xsl:when test="$unit = 'times' and $hi = 1 and $lo = 0">at most once</xsl:when>
      <xsl:when test="$unit = 'times' and $hi = 1">once</xsl:when>
      <xsl:when test="$lo = $hi">
        <xsl:value-of select="@per-thread-min-text"/>
        <xsl:choose>
          <xsl:when test="$unit = 'iterations' and $lo = 1"> iteration</xsl:when>
          <xsl:otherwise><xsl:value-of select="concat(' ', $unit)"/></xsl:otherwise>
        </xsl:choose>
      </xsl:when>
      <xsl:otherwise>
        <xsl:value-of select="concat(@per-thread-min-text, ' to ', @per-thread-max-text, ' ', $unit)"/>
      </xsl:otherwise>
    </xsl:choose>
    <xsl:text> per thread, </xsl:text>
    <xsl:value-of select="@per-block-min-text"/>
    <xsl:if test="@per-block-min != @per-block-max">
      <xsl:value-of select="concat(' to ', @per-block-max-text)"/>
    </xsl:if>
    <xsl:text> per block</xsl:text>
  </xsl:template>

  <!-- "in 1 of 25 blocks", "in the one block", "in no block". -->
  <xsl:template name="in-blocks">
    <xsl:param name="blocks"/>
    <xsl:choose>
      <xsl:when test="$blocks/@active = 0">in no block</xsl:when>
      <xsl:when test="$blocks/@launched = 1">in the one block</xsl:when>
      <xsl:otherwise>
        <xsl:value-of select="concat('in ', $blocks/@active-text, ' of ', $blocks/@launched-text, ' blocks')"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>
  <!-- "800 times by 800 threads, true 160 times (at most once per thread,
       0 to 160 per block)", or "never true" when it never was. -->
  <xsl:template name="evaluations">
    <xsl:call-template name="times">
      <xsl:with-param name="a" select="@evaluations"/>
    </xsl:call-template>
    <xsl:text> by </xsl:text>
    <xsl:call-template name="count">
      <xsl:with-param name="a" select="@threads"/>
      <xsl:with-param name="one" select="'thread'"/>
    </xsl:call-template>
    <xsl:choose>
      <xsl:when test="@taken = 0">, never true</xsl:when>
      <xsl:otherwise>
        <xsl:text>, true </xsl:text>
        <xsl:call-template name="times">
          <xsl:with-param name="a" select="@taken"/>
        </xsl:call-template>
        <xsl:text> (</xsl:text>
        <xsl:call-template name="spread">
          <xsl:with-param name="unit" select="'times'"/>
        </xsl:call-template>
        <xsl:text>)</xsl:text>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- "25,600 times by 25,600 threads; 3 to 4 iterations per thread, 3,200
       per block", or "never" when no thread reached the loop. -->
  <xsl:template name="entries">
    <xsl:choose>
      <xsl:when test="@entries = 0">never</xsl:when>
      <xsl:otherwise>
        <xsl:call-template name="times">
          <xsl:with-param name="a" select="@entries"/>
        </xsl:call-template>
        <xsl:text> by </xsl:text>
        <xsl:call-template name="count">
          <xsl:with-param name="a" select="@threads"/>
          <xsl:with-param name="one" select="'thread'"/>
        </xsl:call-template>
        <xsl:text>; </xsl:text>
        <xsl:call-template name="spread">
          <xsl:with-param name="unit" select="'iterations'"/>
        </xsl:call-template>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- ", memory bound on every GPU" when the kernel's (the context node's)
       bound is the same on more than one GPU, each line of the conclusion
       then leaving it out; nothing when there is no work to bound. -->
  <xsl:template name="one-bound">
    <xsl:variable name="e" select="estimates/estimate"/>
    <xsl:if test="count($e) &gt; 1 and count($e[@bound = $e[1]/@bound]) = count($e)
                  and not(counts[@basis = 'model']/flops/@total = 0 and counts[@basis = 'model']/bytes/@total = 0)">
      <xsl:value-of select="concat(', ', $e[1]/@bound, ' bound on every GPU')"/>
    </xsl:if>
  </xsl:template>

  <!-- The sentence that opens the sources of more than one of $gpus (such as
       "NVIDIA's published figures (...) as reprinted by secondary sources."),
       so that a report says it once; '' when no two GPUs share one. -->
  <xsl:template name="shared-source">
    <xsl:param name="gpus"/>
    <xsl:variable name="first">
      <xsl:for-each select="$gpus[contains(source, '. ')]">
        <xsl:sort select="count($gpus[contains(concat(source, ' '), concat(substring-before(current()/source, '. '), '. '))])"
                  data-type="number" order="descending"/>
        <xsl:if test="position() = 1">
          <xsl:value-of select="concat(substring-before(source, '. '), '.')"/>
        </xsl:if>
      </xsl:for-each>
    </xsl:variable>
    <xsl:if test="$first != '' and count($gpus[contains(concat(source, ' '), concat($first, ' '))]) &gt; 1">
      <xsl:value-of select="$first"/>
    </xsl:if>
  </xsl:template>

  <!-- "Every GPU", or the names of the GPUs of $gpus whose source holds $shared. -->
  <xsl:template name="sharing-gpus">
    <xsl:param name="gpus"/>
    <xsl:param name="shared"/>
    <xsl:variable name="sharing" select="$gpus[contains(concat(source, ' '), concat($shared, ' '))]"/>
    <xsl:choose>
      <xsl:when test="count($sharing) = count($gpus)">Every GPU</xsl:when>
      <xsl:otherwise>
        <xsl:for-each select="$sharing">
          <xsl:if test="position() &gt; 1">
            <xsl:choose>
              <xsl:when test="position() = last()"> and </xsl:when>
              <xsl:otherwise>, </xsl:otherwise>
            </xsl:choose>
          </xsl:if>
          <xsl:value-of select="@name"/>
        </xsl:for-each>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- The context GPU's source without the sentence $shared (said once for all). -->
  <xsl:template name="own-source">
    <xsl:param name="shared"/>
    <xsl:variable name="s" select="concat(source, ' ')"/>
    <xsl:choose>
      <xsl:when test="$shared != '' and contains($s, concat($shared, ' '))">
        <xsl:value-of select="normalize-space(concat(substring-before($s, concat($shared, ' ')), ' ',
                                                     substring-after($s, concat($shared, ' '))))"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:value-of select="source"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- The refined estimate's launch on one GPU, from <refined>: "25 blocks
       (and how many of them work, when not all do) on 15 SMs: 15 active, 64.0 warps on each, 1 wave, wave factor 1.00;
       each thread keeps 8.00 bytes in flight over 3.13 rounds". -->
  <xsl:template name="waves-and-flight">
    <xsl:param name="refined"/>
    <xsl:variable name="w" select="$refined/waves"/>
    <xsl:call-template name="count">
      <xsl:with-param name="a" select="$w/@blocks"/>
      <xsl:with-param name="one" select="'block'"/>
    </xsl:call-template>
    <xsl:if test="$w/@working-blocks">
      <xsl:value-of select="concat(' (', $w/@working-blocks-text, ' with work: the others retire at once)')"/>
    </xsl:if>
    <xsl:text> on </xsl:text>
    <xsl:call-template name="count">
      <xsl:with-param name="a" select="$w/@sms"/>
      <xsl:with-param name="one" select="'SM'"/>
    </xsl:call-template>
    <xsl:value-of select="concat(': ', $w/@active-sms-text, ' active, ')"/>
    <xsl:call-template name="count">
      <xsl:with-param name="a" select="$w/@warps-per-sm"/>
      <xsl:with-param name="one" select="'warp'"/>
    </xsl:call-template>
    <xsl:text> on each, </xsl:text>
    <xsl:call-template name="count">
      <xsl:with-param name="a" select="$w/@waves"/>
      <xsl:with-param name="one" select="'wave'"/>
    </xsl:call-template>
    <xsl:value-of select="concat(', wave factor ', $w/@wave-factor-text, '; each thread keeps ')"/>
    <xsl:call-template name="count">
      <xsl:with-param name="a" select="$refined/flight/@thread-bytes"/>
      <xsl:with-param name="one" select="'byte'"/>
    </xsl:call-template>
    <xsl:text> in flight over </xsl:text>
    <xsl:call-template name="count">
      <xsl:with-param name="a" select="$refined/flight/@rounds"/>
      <xsl:with-param name="one" select="'round'"/>
    </xsl:call-template>
  </xsl:template>

</xsl:stylesheet>
