<?xml version="1.0" encoding="UTF-8"?>
<!-- markdown.xsl: one kernel's report in Markdown (CommonMark + GFM tables),
     from the results tree (see src/results.h). Every number printed here is a
     *-text attribute of the tree: the template formats nothing itself.
     Text from the inputs goes through rc:md() (escaped so it renders
     literally), rc:code() (an inline code span) or rc:fence() (a code fence
     that the code cannot close). Parameter kernel-id picks the kernel. -->
<xsl:stylesheet version="1.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:rc="urn:roofcast"
    extension-element-prefixes="rc">
  <xsl:output method="text" encoding="UTF-8"/>
  <xsl:include href="words.xsl"/>
  <xsl:param name="kernel-id"/>
  <!-- The chart files this run writes, which the report links as images:
       png, svg, or '' (none written: no image links). -->
  <xsl:param name="chart-images" select="'png'"/>

  <xsl:variable name="nl" select="'&#10;'"/>
  <xsl:variable name="gpus" select="/roofcast-results/gpus/gpu"/>
  <!-- The GPUs' assumed figures by name, in document order: a lookup in
       place of searching the figures of every GPU for each (a fifth of a
       report's time). -->
  <xsl:key name="assumed-figure" match="/roofcast-results/gpus/gpu/figure[@origin = 'assumed']"
           use="@name"/>

  <xsl:template match="/">
    <xsl:apply-templates select="/roofcast-results/kernels/kernel[@id = $kernel-id]"/>
  </xsl:template>

  <xsl:template match="kernel">
    <xsl:variable name="model" select="counts[@basis = 'model']"/>
    <xsl:text># </xsl:text>
    <xsl:value-of select="rc:md(@name)"/>
    <xsl:text>: execution time estimates on </xsl:text>
    <xsl:value-of select="count($gpus)"/>
    <xsl:text> GPU</xsl:text>
    <xsl:if test="count($gpus) != 1">s</xsl:if>
    <xsl:value-of select="concat($nl, $nl)"/>
    <xsl:value-of select="rc:md(summary)"/>
    <xsl:value-of select="concat('.', $nl, $nl)"/>
    <xsl:apply-templates select="glance[row]"/>
    <!-- A launch that runs on none of the GPUs (issue 30): that is the answer, so it comes first. -->
    <xsl:if test="cannot-launch and not(estimates/estimate)">
      <xsl:text>## At a glance</xsl:text>
      <xsl:value-of select="concat($nl, $nl)"/>
      <xsl:value-of select="concat('This launch cannot run on any of the ', count(cannot-launch), ' GPUs, so nothing is estimated:', $nl, $nl)"/>
      <xsl:for-each select="cannot-launch">
        <xsl:value-of select="concat('- ', rc:md(@gpu-name), ': ', rc:md(@reason), $nl)"/>
      </xsl:for-each>
      <xsl:value-of select="$nl"/>
    </xsl:if>
    <xsl:text>This report estimates the time of one launch of </xsl:text>
    <xsl:value-of select="rc:code(@name)"/>
    <xsl:text> from its declared work, counted exactly over the launched threads, and the figures of each GPU</xsl:text>
    <xsl:choose>
      <xsl:when test="glance/@order = 't-estimate'">
        <xsl:text> (section 2; appendix B says where each comes from).</xsl:text>
        <xsl:value-of select="concat($nl, $nl)"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:text> (section 2 says where each comes from):</xsl:text>
        <xsl:value-of select="concat($nl, $nl)"/>
        <xsl:call-template name="gpu-list"/>
      </xsl:otherwise>
    </xsl:choose>
    <xsl:if test="$chart-images != '' and estimates/estimate">
      <xsl:text>![Roofline of </xsl:text>
      <xsl:value-of select="rc:md(@name)"/>
      <xsl:value-of select="concat('](', @id, '-roofline.', $chart-images, ')', $nl, $nl)"/>
    </xsl:if>

    <xsl:if test="glance/@order = 't-estimate'">
      <xsl:text>Sections 1 to 5 follow the reference reports' peak-roofline method: every FLOP at the FP32 peak and every byte at the datasheet bandwidth of the whole GPU, plus a fixed launch latency (t_total). Appendix A derives the refined estimate; appendix B gives the sources of the GPU figures.</xsl:text>
      <xsl:value-of select="concat($nl, $nl)"/>
    </xsl:if>
    <xsl:call-template name="configuration"/>
    <xsl:call-template name="work-analysis">
      <xsl:with-param name="model" select="$model"/>
    </xsl:call-template>
    <xsl:call-template name="gpu-table"/>
    <xsl:call-template name="time-estimates">
      <xsl:with-param name="model" select="$model"/>
    </xsl:call-template>

    <xsl:text>## 4. Interpretation</xsl:text>
    <xsl:value-of select="concat($nl, $nl)"/>
    <xsl:for-each select="interpretation/p">
      <xsl:value-of select="rc:md(.)"/>
      <xsl:value-of select="concat($nl, $nl)"/>
    </xsl:for-each>

    <xsl:text>## 5. Conclusion</xsl:text>
    <xsl:value-of select="concat($nl, $nl)"/>
    <xsl:if test="glance/@order = 't-estimate'">
      <xsl:variable name="rows" select="glance/row"/>
      <xsl:text>The time to plan with is the refined estimate, t_estimate ("At a glance"): </xsl:text>
      <xsl:value-of select="$rows[1]/@t-estimate-text"/>
      <xsl:if test="count($rows) &gt; 1">
        <xsl:value-of select="concat(' to ', $rows[last()]/@t-estimate-text)"/>
      </xsl:if>
      <xsl:text> µs per launch</xsl:text>
      <xsl:choose>
        <xsl:when test="count($rows[@fastest = 'yes']) = 1">
          <xsl:value-of select="concat(', fastest on the ', rc:md($rows[1]/@gpu-name))"/>
        </xsl:when>
        <xsl:when test="count($rows[@fastest = 'yes']) = count($rows)">
          <xsl:text>, with no meaningful difference between the GPUs</xsl:text>
        </xsl:when>
        <xsl:when test="$rows[@fastest = 'yes']">
          <xsl:text>, fastest on the </xsl:text>
          <xsl:for-each select="$rows[@fastest = 'yes']">
            <xsl:call-template name="list-separator"/>
            <xsl:value-of select="rc:md(@gpu-name)"/>
          </xsl:for-each>
          <xsl:text> (no meaningful difference between them)</xsl:text>
        </xsl:when>
      </xsl:choose>
      <xsl:value-of select="concat('.', $nl, $nl)"/>
      <xsl:text>Which figure to use: t_estimate (appendix A) is the time to expect from a profiler for this launch queued among others, and the one to plan with; t_lower is a bound no run can beat, to check a measurement against; t_total, the peak roofline of sections 1 to 3, compares GPUs on their datasheets as the reference reports do:</xsl:text>
      <xsl:value-of select="concat($nl, $nl)"/>
    </xsl:if>
    <xsl:if test="not(glance/@order = 't-estimate')">
      <xsl:text>Predicted time per launch of </xsl:text>
      <xsl:value-of select="rc:code(@name)"/>
      <xsl:text>:</xsl:text>
      <xsl:value-of select="concat($nl, $nl)"/>
    </xsl:if>
    <xsl:for-each select="estimates/estimate">
      <xsl:text>- </xsl:text>
      <xsl:value-of select="rc:md(@gpu-name)"/>
      <xsl:text>: t_total </xsl:text>
      <xsl:value-of select="@t-total-text"/>
      <xsl:text> µs, </xsl:text>
      <xsl:choose>
        <xsl:when test="$model/flops/@total = 0 and $model/bytes/@total = 0">all of it launch latency, as no work is counted</xsl:when>
        <xsl:otherwise>
          <xsl:value-of select="@bound"/>
          <xsl:text> bound; launch latency is </xsl:text>
          <xsl:value-of select="@launch-percent-text"/>
          <xsl:text> % of it</xsl:text>
        </xsl:otherwise>
      </xsl:choose>
      <xsl:if test="@fastest = 'yes' and not(../../glance/@order = 't-estimate')"> (fastest)</xsl:if>
      <xsl:value-of select="$nl"/>
    </xsl:for-each>
    <!-- A GPU the launch cannot run on (issue 30): named, no estimate. -->
    <xsl:for-each select="cannot-launch">
      <xsl:value-of select="concat('- ', rc:md(@gpu-name), ': **cannot launch**: ', rc:md(@reason),
                                   '; no estimate is made', $nl)"/>
    </xsl:for-each>
    <xsl:value-of select="$nl"/>
    <xsl:text>These are peak-roofline estimates from the declared work and the GPUs' figures, not measurements. They are neither an upper nor a lower bound on the measured time: caches, occupancy and latencies can move a real launch either way. They show which resource limits the kernel and how the GPUs compare.</xsl:text>
    <xsl:value-of select="$nl"/>
    <xsl:apply-templates select="changes"/>
    <xsl:if test="estimates/estimate/refined">
      <xsl:value-of select="$nl"/>
    </xsl:if>
    <xsl:call-template name="refined-estimate"/>
    <xsl:call-template name="figure-sources"/>
  </xsl:template>

  <!-- The GPUs, each with its memory. -->
  <xsl:template name="gpu-list">
    <xsl:for-each select="$gpus">
      <xsl:text>- </xsl:text>
      <xsl:value-of select="rc:md(@name)"/>
      <xsl:if test="rc:figures(., 'memory')">
        <xsl:value-of select="concat(' (', rc:md(rc:figures(., 'memory')/@value-text), ')')"/>
      </xsl:if>
      <xsl:value-of select="$nl"/>
    </xsl:for-each>
    <xsl:value-of select="$nl"/>
  </xsl:template>

  <!-- At a glance: the refined estimate's rows, fastest first, and the verdict. -->
  <xsl:template match="glance">
    <xsl:variable name="refined" select="@order = 't-estimate'"/>
    <xsl:text>## At a glance</xsl:text>
    <xsl:value-of select="concat($nl, $nl)"/>
    <xsl:choose>
      <xsl:when test="$refined">
        <xsl:text>Time per launch, fastest first by t_estimate, the refined estimate to plan with</xsl:text>
        <xsl:if test="row[@fastest = 'yes']"> (bold: the fastest, within 10 % of each other)</xsl:if>
        <xsl:text>. t_lower: no run can be faster. t_total: the peak roofline of sections 1 to 5.</xsl:text>
        <xsl:value-of select="concat($nl, $nl)"/>
        <xsl:text>| GPU | t_estimate (µs) | Limited by | t_lower (µs) | t_total (µs) |</xsl:text>
        <xsl:value-of select="$nl"/>
        <xsl:text>| --- | ---: | --- | ---: | ---: |</xsl:text>
        <xsl:value-of select="$nl"/>
        <xsl:for-each select="row">
          <xsl:variable name="b">
            <xsl:if test="@fastest = 'yes'">**</xsl:if>
          </xsl:variable>
          <xsl:value-of select="concat('| ', $b, rc:md(@gpu-name), $b, ' | ', $b, @t-estimate-text, $b, ' | ',
                                       rc:md(@limiter-words), ' | ', @t-lower-text, ' | ', @t-total-text, ' |', $nl)"/>
        </xsl:for-each>
      </xsl:when>
      <xsl:otherwise>
        <xsl:text>Time per launch, fastest first by t_total, the peak roofline of sections 1 to 5.</xsl:text>
        <xsl:value-of select="concat($nl, $nl)"/>
        <xsl:text>| GPU | t_total (µs) |</xsl:text>
        <xsl:value-of select="$nl"/>
        <xsl:text>| --- | ---: |</xsl:text>
        <xsl:value-of select="$nl"/>
        <xsl:for-each select="row">
          <xsl:value-of select="concat('| ', rc:md(@gpu-name), ' | ', @t-total-text, ' |', $nl)"/>
        </xsl:for-each>
      </xsl:otherwise>
    </xsl:choose>
    <xsl:value-of select="$nl"/>
    <xsl:for-each select="verdict/p">
      <xsl:value-of select="concat(rc:md(.), $nl, $nl)"/>
    </xsl:for-each>
  </xsl:template>

  <!-- What changed since the baseline (present only when something did). -->
  <xsl:template match="kernel/changes">
    <xsl:value-of select="$nl"/>
    <xsl:text>## Changes since the baseline</xsl:text>
    <xsl:value-of select="concat($nl, $nl)"/>
    <xsl:value-of select="concat('Compared with ', rc:code(@baseline), '.', $nl, $nl)"/>
    <xsl:if test="input">
      <xsl:text>Inputs that changed:</xsl:text>
      <xsl:value-of select="concat($nl, $nl)"/>
      <xsl:for-each select="input">
        <xsl:value-of select="concat('- ', @kind, ' ')"/>
        <xsl:if test="@gpu">
          <xsl:value-of select="concat(rc:md(@gpu), ' ')"/>
        </xsl:if>
        <xsl:value-of select="concat(rc:md(@name), ': ', rc:md(@old), ' → ', rc:md(@new), $nl)"/>
      </xsl:for-each>
      <xsl:value-of select="$nl"/>
    </xsl:if>
    <xsl:if test="estimate">
      <xsl:text>| GPU | Estimate | Old (µs) | New (µs) | Change |</xsl:text>
      <xsl:value-of select="$nl"/>
      <xsl:text>| --- | --- | ---: | ---: | ---: |</xsl:text>
      <xsl:value-of select="$nl"/>
      <xsl:for-each select="estimate">
        <xsl:value-of select="concat('| ', rc:md(@gpu-name), ' | ', @quantity, ' | ', @old-text, ' | ',
                                     @new-text, ' | ', @percent-text, ' |', $nl)"/>
      </xsl:for-each>
    </xsl:if>
  </xsl:template>

  <!-- Configuration: launch, parameters, notes and the source. -->
  <xsl:template name="configuration">
    <xsl:text>## Configuration</xsl:text>
    <xsl:value-of select="concat($nl, $nl)"/>
    <xsl:text>| Item | Value |</xsl:text>
    <xsl:value-of select="$nl"/>
    <xsl:text>| --- | --- |</xsl:text>
    <xsl:value-of select="$nl"/>
    <xsl:value-of select="concat('| Grid | ', launch/@grid, ' → ')"/>
    <xsl:call-template name="count">
      <xsl:with-param name="a" select="launch/@blocks"/>
      <xsl:with-param name="one" select="'block'"/>
    </xsl:call-template>
    <xsl:value-of select="concat(' |', $nl)"/>
    <xsl:value-of select="concat('| Block | ', launch/@block, ' → ')"/>
    <xsl:call-template name="count">
      <xsl:with-param name="a" select="launch/@threads-per-block"/>
      <xsl:with-param name="one" select="'thread'"/>
    </xsl:call-template>
    <xsl:value-of select="concat(' per block |', $nl)"/>
    <xsl:value-of select="concat('| Launched threads | ', launch/@threads-text, ' |', $nl)"/>
    <xsl:for-each select="params/param">
      <xsl:text>| Parameter </xsl:text>
      <xsl:value-of select="rc:md(@name)"/>
      <xsl:text> | </xsl:text>
      <xsl:value-of select="@value-text"/>
      <xsl:if test="@note">
        <xsl:value-of select="concat(' (', rc:md(@note), ')')"/>
      </xsl:if>
      <xsl:value-of select="concat(' |', $nl)"/>
    </xsl:for-each>
    <xsl:value-of select="$nl"/>
    <xsl:if test="notes/note">
      <xsl:for-each select="notes/note">
        <xsl:value-of select="concat('- ', rc:md(.), $nl)"/>
      </xsl:for-each>
      <xsl:value-of select="$nl"/>
    </xsl:if>
    <xsl:variable name="fence" select="rc:fence(source)"/>
    <xsl:value-of select="concat($fence, rc:md-info(source/@language), $nl)"/>
    <xsl:value-of select="source"/>
    <xsl:value-of select="concat($nl, $fence, $nl, $nl)"/>
  </xsl:template>

  <!-- 1. Work analysis: every count derived step by step. -->
  <xsl:template name="work-analysis">
    <xsl:param name="model"/>
    <xsl:text>## 1. Work analysis</xsl:text>
    <xsl:value-of select="concat($nl, $nl)"/>
    <xsl:text>The work model is run for every launched thread and its counts are added up exactly. </xsl:text>
    <xsl:choose>
      <xsl:when test="$model/evaluation/@reads = ''">
        <xsl:choose>
          <xsl:when test="$model/threads/@launched = 1">It reads no thread or block index, and one thread is launched.</xsl:when>
          <xsl:otherwise>
            <xsl:value-of select="concat('It reads no thread or block index, so one run stands for all ',
                                         $model/threads/@launched-text, ' threads.')"/>
          </xsl:otherwise>
        </xsl:choose>
      </xsl:when>
      <xsl:otherwise>
        <xsl:text>It reads </xsl:text>
        <xsl:call-template name="code-list">
          <xsl:with-param name="names" select="$model/evaluation/@reads"/>
        </xsl:call-template>
        <xsl:choose>
          <xsl:when test="$model/evaluation/@runs = 1">
            <xsl:text>; every thread does the same work over the whole range of those indices, so one run stands for all </xsl:text>
            <xsl:call-template name="count">
              <xsl:with-param name="a" select="$model/threads/@launched"/>
              <xsl:with-param name="one" select="'thread'"/>
            </xsl:call-template>
            <xsl:text>.</xsl:text>
          </xsl:when>
          <xsl:otherwise>
            <xsl:text>; it was run over </xsl:text>
            <xsl:value-of select="$model/evaluation/@runs-text"/>
            <xsl:text> ranges of those indices, within each of which every thread does the same work, so one run stands for all the threads of a range (</xsl:text>
            <xsl:value-of select="$model/threads/@launched-text"/>
            <xsl:text> threads in all).</xsl:text>
          </xsl:otherwise>
        </xsl:choose>
      </xsl:otherwise>
    </xsl:choose>
    <xsl:value-of select="concat($nl, $nl)"/>
    <xsl:apply-templates select="$model/work/*">
      <xsl:with-param name="indent" select="''"/>
    </xsl:apply-templates>
    <xsl:value-of select="$nl"/>

    <xsl:text>Totals:</xsl:text>
    <xsl:value-of select="concat($nl, $nl)"/>
    <xsl:text>| Quantity | Per active thread | Per active block | Whole launch |</xsl:text>
    <xsl:value-of select="$nl"/>
    <xsl:text>| --- | --- | --- | --- |</xsl:text>
    <xsl:value-of select="$nl"/>
    <xsl:variable name="none" select="$model/threads/@active = 0"/>
    <xsl:text>| Active threads | </xsl:text>
    <xsl:choose>
      <xsl:when test="$none">– | – | </xsl:when>
      <xsl:otherwise>
        <xsl:text>1 | </xsl:text>
        <xsl:call-template name="range">
          <xsl:with-param name="lo" select="$model/threads/@active-per-block-min-text"/>
          <xsl:with-param name="hi" select="$model/threads/@active-per-block-max-text"/>
        </xsl:call-template>
        <xsl:text> | </xsl:text>
      </xsl:otherwise>
    </xsl:choose>
    <xsl:value-of select="concat($model/threads/@active-text, ' of ', $model/threads/@launched-text,
                                 ' launched (', $model/threads/@active-percent-text, ' %), ')"/>
    <xsl:call-template name="in-blocks">
      <xsl:with-param name="blocks" select="$model/blocks"/>
    </xsl:call-template>
    <xsl:value-of select="concat(' |', $nl)"/>
    <xsl:call-template name="total-row">
      <xsl:with-param name="label" select="'FLOPs'"/>
      <xsl:with-param name="s" select="$model/flops"/>
      <xsl:with-param name="extra" select="''"/>
      <xsl:with-param name="none" select="$none"/>
    </xsl:call-template>
    <xsl:call-template name="total-row">
      <xsl:with-param name="label" select="'Bytes moved'"/>
      <xsl:with-param name="s" select="$model/bytes"/>
      <xsl:with-param name="extra" select="concat(' (', $model/bytes/@mib-text, ' MiB)')"/>
      <xsl:with-param name="none" select="$none"/>
    </xsl:call-template>
    <xsl:text>| Arithmetic intensity | | | </xsl:text>
    <xsl:choose>
      <xsl:when test="$model/flops/@total = 0 and $model/bytes/@total = 0">none: no FLOPs, no bytes</xsl:when>
      <xsl:when test="$model/bytes/@total = 0">unbounded: no bytes move</xsl:when>
      <xsl:otherwise><xsl:value-of select="concat($model/intensity/@value-text, ' FLOP/byte')"/></xsl:otherwise>
    </xsl:choose>
    <xsl:value-of select="concat(' |', $nl, $nl)"/>
    <xsl:if test="$model/bytes/@traffic != 0 and ($model/bytes/@loaded != 0 or $model/bytes/@stored != 0)">
      <xsl:value-of select="concat('Of the bytes, ', $model/bytes/@loaded-text, ' are loaded, ',
                                   $model/bytes/@stored-text, ' stored and ',
                                   $model/bytes/@traffic-text, ' given as totals without the split.', $nl, $nl)"/>
    </xsl:if>
    <xsl:call-template name="assumptions">
      <xsl:with-param name="model" select="$model"/>
    </xsl:call-template>
  </xsl:template>

  <xsl:template name="total-row">
    <xsl:param name="label"/>
    <xsl:param name="s"/>
    <xsl:param name="extra"/>
    <xsl:param name="none"/>
    <xsl:value-of select="concat('| ', $label, ' | ')"/>
    <xsl:choose>
      <xsl:when test="$none">– | –</xsl:when>
      <xsl:otherwise>
        <xsl:call-template name="range">
          <xsl:with-param name="lo" select="$s/@per-thread-min-text"/>
          <xsl:with-param name="hi" select="$s/@per-thread-max-text"/>
        </xsl:call-template>
        <xsl:text> | </xsl:text>
        <xsl:call-template name="range">
          <xsl:with-param name="lo" select="$s/@per-block-min-text"/>
          <xsl:with-param name="hi" select="$s/@per-block-max-text"/>
        </xsl:call-template>
      </xsl:otherwise>
    </xsl:choose>
    <xsl:value-of select="concat(' | **', $s/@total-text, '**', $extra, ' |', $nl)"/>
  </xsl:template>

  <!-- "3" or "3 to 4" -->
  <xsl:template name="range">
    <xsl:param name="lo"/>
    <xsl:param name="hi"/>
    <xsl:value-of select="$lo"/>
    <xsl:if test="$lo != $hi">
      <xsl:value-of select="concat(' to ', $hi)"/>
    </xsl:if>
  </xsl:template>

  <!-- "a", "a and b", "a, b and c" as code spans, from a space-separated list. -->
  <xsl:template name="code-list">
    <xsl:param name="names"/>
    <xsl:param name="first" select="true()"/>
    <xsl:variable name="head" select="substring-before(concat($names, ' '), ' ')"/>
    <xsl:variable name="rest" select="substring-after($names, ' ')"/>
    <xsl:if test="not($first)">
      <xsl:choose>
        <xsl:when test="$rest = ''"> and </xsl:when>
        <xsl:otherwise>, </xsl:otherwise>
      </xsl:choose>
    </xsl:if>
    <xsl:value-of select="rc:code($head)"/>
    <xsl:if test="$rest != ''">
      <xsl:call-template name="code-list">
        <xsl:with-param name="names" select="$rest"/>
        <xsl:with-param name="first" select="false()"/>
      </xsl:call-template>
    </xsl:if>
  </xsl:template>

  <!-- "80,000 executions = **640,000** bytes.", each noun agreeing with
       its number. -->
  <xsl:template name="executions-total">
    <xsl:param name="total"/>
    <xsl:param name="one"/>
    <xsl:call-template name="count">
      <xsl:with-param name="a" select="@executions"/>
      <xsl:with-param name="one" select="'execution'"/>
    </xsl:call-template>
    <xsl:text> = **</xsl:text>
    <xsl:call-template name="shown">
      <xsl:with-param name="a" select="$total"/>
    </xsl:call-template>
    <xsl:value-of select="concat('** ', $one)"/>
    <xsl:if test="$total != 1">s</xsl:if>
    <xsl:value-of select="concat('.', $nl)"/>
  </xsl:template>

  <!-- "8 bytes per execution × 80,000 executions = **640,000** bytes." -->
  <xsl:template name="per-execution">
    <xsl:call-template name="count">
      <xsl:with-param name="a" select="@per-execution"/>
      <xsl:with-param name="one" select="'byte'"/>
    </xsl:call-template>
    <xsl:text> per execution × </xsl:text>
    <xsl:call-template name="executions-total">
      <xsl:with-param name="total" select="@total-bytes"/>
      <xsl:with-param name="one" select="'byte'"/>
    </xsl:call-template>
  </xsl:template>

  <xsl:template name="note">
    <xsl:if test="@note">
      <xsl:value-of select="concat(' (', rc:md(@note), ')')"/>
    </xsl:if>
  </xsl:template>

  <xsl:template match="let">
    <xsl:param name="indent"/>
    <xsl:value-of select="concat($indent, '- Let ', rc:code(concat(@name, ' = ', @value)))"/>
    <xsl:call-template name="note"/>
    <xsl:value-of select="concat('.', $nl)"/>
  </xsl:template>

  <xsl:template match="when">
    <xsl:param name="indent"/>
    <xsl:value-of select="concat($indent, '- Guard ', rc:code(concat('if (', @test, ')')))"/>
    <xsl:call-template name="note"/>
    <xsl:if test="@assumption">
      <xsl:value-of select="concat(', an assumption of the model (', rc:md(ancestor::kernel/@file), ' line ', @line, '): ', rc:md(@assumption))"/>
    </xsl:if>
    <xsl:text>: evaluated </xsl:text>
    <xsl:call-template name="evaluations"/>
    <xsl:value-of select="concat('.', $nl)"/>
    <xsl:apply-templates select="*">
      <xsl:with-param name="indent" select="concat($indent, '  ')"/>
    </xsl:apply-templates>
  </xsl:template>

  <xsl:template match="loop">
    <xsl:param name="indent"/>
    <xsl:value-of select="concat($indent, '- Loop ',
                                 rc:code(concat('for (', @var, ' = ', @from, '; ', @condition,
                                                '; ', @update, ')')))"/>
    <xsl:call-template name="note"/>
    <xsl:text>: entered </xsl:text>
    <xsl:call-template name="entries"/>
    <xsl:text>; **</xsl:text>
    <xsl:value-of select="@iterations-text"/>
    <xsl:text>** iteration</xsl:text>
    <xsl:if test="@iterations != 1">s</xsl:if>
    <xsl:value-of select="concat(' in total.', $nl)"/>
    <xsl:apply-templates select="*">
      <xsl:with-param name="indent" select="concat($indent, '  ')"/>
    </xsl:apply-templates>
  </xsl:template>

  <xsl:template match="flops">
    <xsl:param name="indent"/>
    <xsl:value-of select="concat($indent, '- ')"/>
    <xsl:if test="@precision != 'fp32'">
      <xsl:value-of select="concat(translate(@precision, 'fp', 'FP'), ' ')"/>
    </xsl:if>
    <xsl:text>FLOPs</xsl:text>
    <xsl:call-template name="note"/>
    <xsl:choose>
      <xsl:when test="@per-execution">
        <xsl:value-of select="concat(': ', @per-execution-text, ' per execution × ')"/>
        <xsl:call-template name="executions-total">
          <xsl:with-param name="total" select="@total-flops"/>
          <xsl:with-param name="one" select="'FLOP'"/>
        </xsl:call-template>
      </xsl:when>
      <xsl:otherwise>
        <xsl:value-of select="concat(': ', rc:code(@count), ' per execution, summed over ')"/>
        <xsl:call-template name="executions-total">
          <xsl:with-param name="total" select="@total-flops"/>
          <xsl:with-param name="one" select="'FLOP'"/>
        </xsl:call-template>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template match="load | store | atomic">
    <xsl:param name="indent"/>
    <xsl:value-of select="concat($indent, '- ')"/>
    <xsl:choose>
      <xsl:when test="self::load">Loads</xsl:when>
      <xsl:when test="self::atomic">Atomics</xsl:when>
      <xsl:otherwise>Stores</xsl:otherwise>
    </xsl:choose>
    <xsl:if test="@array">
      <xsl:value-of select="concat(' of ', rc:code(concat(@array, '[', @index, ']')))"/>
      <xsl:if test="@space != 'global'">
        <xsl:value-of select="concat(' (', @space, ' memory)')"/>
      </xsl:if>
    </xsl:if>
    <xsl:call-template name="note"/>
    <xsl:choose>
      <xsl:when test="@per-execution">
        <xsl:value-of select="concat(': ', @element-count-text, ' × ')"/>
        <xsl:call-template name="count">
          <xsl:with-param name="a" select="@element-bytes"/>
          <xsl:with-param name="one" select="'byte'"/>
        </xsl:call-template>
        <xsl:text> = </xsl:text>
        <xsl:call-template name="per-execution"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:value-of select="concat(': ', rc:code(@count), ' × ', rc:code(@bytes),
                                     ' bytes per execution, summed over ')"/>
        <xsl:call-template name="executions-total">
          <xsl:with-param name="total" select="@total-bytes"/>
          <xsl:with-param name="one" select="'byte'"/>
        </xsl:call-template>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template match="traffic">
    <xsl:param name="indent"/>
    <xsl:value-of select="concat($indent, '- Memory traffic')"/>
    <xsl:call-template name="note"/>
    <xsl:choose>
      <xsl:when test="@per-execution">
        <xsl:text>: </xsl:text>
        <xsl:call-template name="per-execution"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:value-of select="concat(': ', rc:code(@bytes), ' bytes per execution, summed over ')"/>
        <xsl:call-template name="executions-total">
          <xsl:with-param name="total" select="@total-bytes"/>
          <xsl:with-param name="one" select="'byte'"/>
        </xsl:call-template>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- Where the model's stated assumptions and the launch disagree. -->
  <xsl:template name="assumptions">
    <xsl:param name="model"/>
    <xsl:variable name="launch" select="counts[@basis = 'launch']"/>
    <xsl:if test="$launch">
      <xsl:text>### Assumptions and the launch</xsl:text>
      <xsl:value-of select="concat($nl, $nl)"/>
      <xsl:text>The model makes assumptions that the kernel's code, launched as configured, does not:</xsl:text>
      <xsl:value-of select="concat($nl, $nl)"/>
      <xsl:for-each select="$model/work//when[@assumption]">
        <xsl:value-of select="concat('- ', rc:md(ancestor::kernel/@file), ' line ', @line, ': ', rc:md(@assumption), ' (the model guards its work with ',
                                     rc:code(@test), ').', $nl)"/>
      </xsl:for-each>
      <xsl:value-of select="$nl"/>
      <xsl:text>Counted without those guards, as the launch runs it:</xsl:text>
      <xsl:value-of select="concat($nl, $nl)"/>
      <xsl:text>| Quantity | As modelled | As launched |</xsl:text>
      <xsl:value-of select="$nl"/>
      <xsl:text>| --- | --- | --- |</xsl:text>
      <xsl:value-of select="$nl"/>
      <xsl:value-of select="concat('| Active threads | ', $model/threads/@active-text, ' | ', $launch/threads/@active-text, ' |', $nl)"/>
      <xsl:value-of select="concat('| FLOPs | ', $model/flops/@total-text, ' | ', $launch/flops/@total-text, ' |', $nl)"/>
      <xsl:value-of select="concat('| Bytes moved | ', $model/bytes/@total-text, ' | ', $launch/bytes/@total-text, ' |', $nl)"/>
      <xsl:for-each select="estimates/estimate">
        <xsl:variable name="gpu" select="@gpu"/>
        <xsl:value-of select="concat('| t_total on ', rc:md(@gpu-name), ' (µs) | ', @t-total-text, ' | ',
                                     ../../launch-estimates/estimate[@gpu = $gpu]/@t-total-text, ' |', $nl)"/>
      </xsl:for-each>
      <xsl:value-of select="$nl"/>
      <xsl:text>The estimates below use the model's counts, as the reference analysis does.</xsl:text>
      <xsl:value-of select="concat($nl, $nl)"/>
    </xsl:if>
  </xsl:template>

  <!-- 2. The GPUs and where their figures come from. -->
  <xsl:template name="gpu-table">
    <xsl:text>## 2. GPU specifications used</xsl:text>
    <xsl:value-of select="concat($nl, $nl)"/>
    <xsl:text>| GPU | Architecture | FP32 peak | Bandwidth | Ridge point | Launch latency |</xsl:text>
    <xsl:value-of select="$nl"/>
    <xsl:text>| --- | --- | --- | --- | --- | --- |</xsl:text>
    <xsl:value-of select="$nl"/>
    <xsl:for-each select="$gpus">
      <xsl:value-of select="concat('| ', rc:md(@name), ' | ', rc:md(architecture), ' | ')"/>
      <xsl:apply-templates select="rc:figures(., 'peak-fp32')" mode="cell"/>
      <xsl:text> | </xsl:text>
      <xsl:apply-templates select="rc:figures(., 'bandwidth')" mode="cell"/>
      <xsl:text> | </xsl:text>
      <xsl:apply-templates select="rc:figures(., 'ridge')" mode="cell"/>
      <xsl:text> | </xsl:text>
      <xsl:apply-templates select="rc:figures(., 'launch-latency')" mode="cell"/>
      <xsl:value-of select="concat(' |', $nl)"/>
    </xsl:for-each>
    <xsl:value-of select="$nl"/>
    <xsl:text>Appendix B gives the sources of the figures and what each assumed figure stands for.</xsl:text>
    <xsl:value-of select="concat($nl, $nl)"/>
  </xsl:template>

  <!-- Appendix B: where the GPUs' figures come from. -->
  <xsl:template name="figure-sources">
    <xsl:if test="$gpus">
      <xsl:text>## Appendix B. Sources of the GPU figures</xsl:text>
      <xsl:value-of select="concat($nl, $nl)"/>
      <xsl:for-each select="$gpus">
        <xsl:value-of select="concat('- ', rc:md(@name))"/>
        <xsl:if test="rc:figures(., 'memory')">
          <xsl:value-of select="concat(' (', rc:md(rc:figures(., 'memory')/@value-text), ')')"/>
        </xsl:if>
        <xsl:value-of select="concat(': ', rc:md(source), $nl)"/>
      </xsl:for-each>
      <xsl:apply-templates select="$gpus/figure[@origin = 'assumed']" mode="assumed"/>
    </xsl:if>
  </xsl:template>

  <!-- A GPU figure in a table cell, marked when it is assumed. -->
  <xsl:template match="figure" mode="cell">
    <xsl:value-of select="@value-text"/>
    <xsl:if test="@origin = 'assumed'"> (assumed)</xsl:if>
  </xsl:template>

  <!-- The assumed figures, one item per figure name, on the first GPU
       that assumes it: "- Launch latency, 5 µs on every GPU, is assumed:
       (source). It stands for (assumption)." -->
  <xsl:template match="figure" mode="assumed">
    <xsl:variable name="name" select="@name"/>
    <xsl:if test="generate-id() = generate-id(key('assumed-figure', $name)[1])">
      <xsl:value-of select="concat('- ', rc:md(@label), ', ')"/>
      <xsl:call-template name="assumed-where"/>
      <xsl:value-of select="concat(', is assumed: ', rc:md(@source), '. It stands for ', rc:md(@assumption), '.', $nl)"/>
    </xsl:if>
  </xsl:template>

  <!-- "5 µs on every GPU", "5 µs on A and B", or "A: 5 µs, B: 6 µs" for
       the assumed figures named like the context node. -->
  <xsl:template name="assumed-where">
    <xsl:variable name="name" select="@name"/>
    <xsl:variable name="all" select="key('assumed-figure', $name)"/>
    <xsl:variable name="value" select="@value-text"/>
    <xsl:choose>
      <xsl:when test="count($all[@value-text = $value]) != count($all)">
        <xsl:for-each select="$all">
          <xsl:call-template name="list-separator"/>
          <xsl:value-of select="concat(rc:md(../@name), ': ', @value-text)"/>
        </xsl:for-each>
      </xsl:when>
      <xsl:when test="count($all) = count($gpus) and count($gpus) &gt; 1">
        <xsl:value-of select="concat($value, ' on every GPU')"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:value-of select="concat($value, ' on ')"/>
        <xsl:for-each select="$all">
          <xsl:call-template name="list-separator"/>
          <xsl:value-of select="rc:md(../@name)"/>
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

  <!-- The refined estimate: the execution model's table, formulas and each GPU's terms. -->
  <xsl:template name="refined-estimate">
    <xsl:if test="estimates/estimate/refined">
      <xsl:text>## Appendix A. How the refined estimate was computed</xsl:text>
      <xsl:value-of select="concat($nl, $nl)"/>
      <xsl:text>Sections 1 to 3 are the peak roofline of the reference reports: every byte at the datasheet bandwidth and every FLOP at the FP32 peak of the whole GPU. The refined estimate asks what this launch can use of each GPU: how many blocks an SM holds (occupancy, by the CUDA occupancy rules), how many SMs the grid keeps busy and in how many waves, how many bytes its warps keep in flight (Little's law: rate = bytes in flight / latency, bending towards and never above the measured sustained rate), and the longest thread's own work. It adds the cost of a launch queued back to back, as a profiler measures it. t_lower is a true lower bound: FLOPs at 1.15 times the peak, the accessed bytes at the L1 rate, the longest thread at one FMA a cycle.</xsl:text>
      <xsl:value-of select="concat($nl, $nl)"/>
      <xsl:text>- blocks per SM = min(threads per SM / threads per block, blocks per SM, registers, shared memory), registers allocated per warp in units of the register unit and shared memory per block (plus the reserve) in units of the shared unit</xsl:text>
      <xsl:value-of select="$nl"/>
      <xsl:text>- waves = ceil(blocks / (SMs × blocks per SM)); wave factor = waves × concurrent blocks / blocks (the tail wave costs a full one)</xsl:text>
      <xsl:value-of select="$nl"/>
      <xsl:text>- t_compute = FLOPs / (peak × active SMs / SMs × min(1, warps per SM / 4)) × wave factor, per precision (FP16, FP32, FP64 peaks; 4 schedulers an SM, each issuing one warp instruction a cycle)</xsl:text>
      <xsl:value-of select="$nl"/>
      <xsl:text>- t_level = bytes / (little^-2 + sustained^-2)^-1/2 × wave factor, for DRAM, L2 and L1 (L1 bytes are, per array, at least 128 bytes per request (one wavefront), plus 128 bytes per shared-memory wavefront; DRAM bytes are 0 when the footprint fits three quarters of the L2, where the previous launch left it, and otherwise at most the footprint once per wave (assumed: blocks resident at once find in L2 what they reuse)), where little = bytes in flight / (latency × (1.3 + 0.7 / rounds)) (Little's law; a round costs more than a pointer chase, a block's start and end about one more) and bytes in flight = blocks resident at once × threads per block × the share of threads that work × bytes a thread keeps in flight</xsl:text>
      <xsl:value-of select="$nl"/>
      <xsl:text>- t_thread = the longest thread's FLOPs / 2 (one FMA an instruction) × cycles an instruction / SM clock</xsl:text>
      <xsl:value-of select="$nl"/>
      <xsl:text>- t_estimate = max(all of the above) + launch cost back to back</xsl:text>
      <xsl:value-of select="concat($nl, $nl)"/>
      <xsl:text>| GPU | Occupancy (%) | Blocks per SM (limit) | Waves | t_body_est (µs) | Launch (µs) | t_estimate (µs) | t_lower (µs) | t_total (µs) | Limiter |</xsl:text>
      <xsl:value-of select="$nl"/>
      <xsl:text>| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |</xsl:text>
      <xsl:value-of select="$nl"/>
      <xsl:for-each select="estimates/estimate">
        <xsl:variable name="r" select="refined"/>
        <xsl:value-of select="concat('| ', rc:md(@gpu-name), ' | ', $r/occupancy/@percent-text, ' | ',
                                     $r/occupancy/@blocks-per-sm-text, ' (', $r/occupancy/@limit, ') | ',
                                     @waves-text, ' | ', $r/@t-body-est-text, ' | ', $r/@t-launch-text, ' | ',
                                     @t-estimate-text, ' | ', @t-lower-text, ' | ', @t-total-text, ' | ',
                                     @limiter, ' |', $nl)"/>
      </xsl:for-each>
      <xsl:value-of select="$nl"/>
      <xsl:text>Each GPU's terms, with the numbers that go into them (figures marked "assumed" are architecture defaults standing in for a missing measurement):</xsl:text>
      <xsl:value-of select="concat($nl, $nl)"/>
      <xsl:for-each select="estimates/estimate">
        <xsl:variable name="id" select="@gpu"/>
        <xsl:variable name="gpu" select="$gpus[@id = $id]"/>
        <xsl:value-of select="concat('- **', rc:md(@gpu-name), '**: ', rc:md(refined/explanation), $nl)"/>
        <xsl:text>  - </xsl:text>
        <xsl:call-template name="waves-and-flight">
          <xsl:with-param name="refined" select="refined"/>
        </xsl:call-template>
        <xsl:value-of select="$nl"/>
        <!-- The longest term with its inputs, the others' times only (results.xml keeps
             every term's inputs). -->
        <xsl:variable name="longest" select="refined/term[not(../term/@time &gt; @time)][1]"/>
        <xsl:value-of select="concat('  - longest term, ', $longest/@name, ': ', $longest/@time-text, ' µs (', rc:md($longest/@inputs), ')', $nl)"/>
        <xsl:if test="refined/term[generate-id() != generate-id($longest)]">
          <xsl:text>  - other terms:</xsl:text>
          <xsl:for-each select="refined/term[generate-id() != generate-id($longest)]">
            <xsl:value-of select="concat(' ', @name, ' ', @time-text, ' µs')"/>
            <xsl:if test="position() != last()">;</xsl:if>
          </xsl:for-each>
          <xsl:value-of select="$nl"/>
        </xsl:if>
        <xsl:for-each select="rc:figures($gpu/execution, 'dram-bandwidth dram-latency launch-back-to-back')">
          <xsl:value-of select="concat('  - ', rc:md(@label), ': ', @value-text, ', ')"/>
          <xsl:choose>
            <xsl:when test="starts-with(@source, 'assumed: ')">
              <xsl:value-of select="concat('**assumed**: ', rc:md(substring-after(@source, 'assumed: ')), $nl)"/>
            </xsl:when>
            <xsl:otherwise>
              <xsl:value-of select="concat(@origin, ': ', rc:md(@source), $nl)"/>
            </xsl:otherwise>
          </xsl:choose>
        </xsl:for-each>
      </xsl:for-each>
      <xsl:value-of select="$nl"/>
      <xsl:call-template name="memory-traffic">
        <xsl:with-param name="model" select="counts[@basis = 'model']"/>
      </xsl:call-template>
    </xsl:if>
  </xsl:template>

  <!-- 3. Formulas and the time table. -->
  <xsl:template name="time-estimates">
    <xsl:param name="model"/>
    <xsl:text>## 3. Time estimates</xsl:text>
    <xsl:value-of select="concat($nl, $nl)"/>
    <xsl:text>For each GPU, with FLOPs = </xsl:text>
    <xsl:value-of select="$model/flops/@total-text"/>
    <xsl:text> and bytes = </xsl:text>
    <xsl:value-of select="$model/bytes/@total-text"/>
    <xsl:text>:</xsl:text>
    <xsl:value-of select="concat($nl, $nl)"/>
    <xsl:text>- t_compute = FLOPs / peak_FP32</xsl:text>
    <xsl:value-of select="$nl"/>
    <xsl:text>- t_mem = bytes / bandwidth</xsl:text>
    <xsl:value-of select="$nl"/>
    <xsl:text>- t_body = max(t_compute, t_mem)</xsl:text>
    <xsl:value-of select="$nl"/>
    <xsl:text>- t_total = t_body + t_launch</xsl:text>
    <xsl:value-of select="concat($nl, $nl)"/>
    <xsl:text>| GPU | t_compute (µs) | t_mem (µs) | t_body (µs) | t_launch (µs) | t_total (µs) | Bound | Launch share (%) |</xsl:text>
    <xsl:value-of select="$nl"/>
    <xsl:text>| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |</xsl:text>
    <xsl:value-of select="$nl"/>
    <xsl:for-each select="estimates/estimate">
      <xsl:value-of select="concat('| ', rc:md(@gpu-name), ' | ', @t-compute-text, ' | ', @t-mem-text, ' | ',
                                   @t-body-text, ' | ', @t-launch-text, ' | ', @t-total-text, ' | ',
                                   @bound, ' | ', @launch-percent-text, ' |', $nl)"/>
    </xsl:for-each>
    <xsl:value-of select="$nl"/>
    <xsl:if test="$chart-images != '' and estimates/estimate">
      <xsl:text>![Time per launch of </xsl:text>
      <xsl:value-of select="rc:md(@name)"/>
      <xsl:value-of select="concat('](', @id, '-time.', $chart-images, ')', $nl, $nl)"/>
    </xsl:if>
    <xsl:if test="not(glance/@order = 't-estimate')">
      <xsl:call-template name="memory-traffic">
        <xsl:with-param name="model" select="$model"/>
      </xsl:call-template>
    </xsl:if>
  </xsl:template>

  <!-- The memory model (issue 16): counts per array, bytes per level. -->
  <xsl:template name="memory-traffic">
    <xsl:param name="model"/>
    <xsl:variable name="m" select="$model/memory"/>
    <xsl:if test="$m">
      <xsl:text>### Memory traffic by level</xsl:text>
      <xsl:value-of select="concat($nl, $nl)"/>
      <xsl:text>Accesses are counted per warp (32 consecutive threads of a block, x fastest). A request is one access by the active lanes of a warp at the same iteration of every loop around it; a sector is 32 bytes. Sectors moved sums each request's distinct sectors; the footprint counts the distinct sectors of the whole launch.</xsl:text>
      <xsl:value-of select="concat($nl, $nl)"/>
      <xsl:text>| Array | Space | Requests | Accessed | Sectors moved | Sectors per request | Efficiency (%) | Footprint | Shared wavefronts |</xsl:text>
      <xsl:value-of select="$nl"/>
      <xsl:text>| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |</xsl:text>
      <xsl:value-of select="$nl"/>
      <xsl:for-each select="$m/array">
        <xsl:value-of select="concat('| ', rc:code(concat(@type, ' ', @name, '[', @length-text, ']')), ' | ', @space, ' | ')"/>
        <xsl:call-template name="memory-cells"/>
      </xsl:for-each>
      <xsl:if test="$m/legacy">
        <xsl:text>| accesses without an address | global | </xsl:text>
        <xsl:for-each select="$m/legacy">
          <xsl:call-template name="memory-cells"/>
        </xsl:for-each>
      </xsl:if>
      <xsl:text>| **Total** | | </xsl:text>
      <xsl:for-each select="$m">
        <xsl:call-template name="memory-cells"/>
      </xsl:for-each>
      <xsl:value-of select="$nl"/>
      <xsl:if test="$m/legacy">
        <xsl:text>Accesses written as a count of bytes (</xsl:text>
        <xsl:value-of select="rc:code('load count bytes')"/>
        <xsl:text>, </xsl:text>
        <xsl:value-of select="rc:code('store')"/>
        <xsl:text>, </xsl:text>
        <xsl:value-of select="rc:code('traffic')"/>
        <xsl:text>) carry no address: they are counted as perfectly coalesced (128 bytes per request) and read once, with no reuse, so their sectors and footprint equal their bytes.</xsl:text>
        <xsl:value-of select="concat($nl, $nl)"/>
      </xsl:if>
      <xsl:if test="$m/@enumerated">
        <xsl:value-of select="concat('Arrays counted by running every distinct warp, not by classes of blocks (see docs/counting.md): ', rc:md($m/@enumerated), '.', $nl, $nl)"/>
      </xsl:if>
      <xsl:if test="$m/@sampled = 'yes'">
        <xsl:value-of select="concat('These counts are estimated from a sample: ', $m/@sample-blocks-text,
                                     ' of the ', $m/@sample-classes-text,
                                     ' blocks whose accesses differ, one drawn at random (seed ', $m/@sample-seed,
                                     ') from each of as many equal strides, scaled to the whole launch; counting them all would pass the analysis budget.')"/>
        <xsl:value-of select="concat($nl, $nl)"/>
      </xsl:if>
      <xsl:text>Each level's bytes, and the time they take at that level's bandwidth (DRAM at the bandwidth of section 2):</xsl:text>
      <xsl:value-of select="concat($nl, $nl)"/>
      <xsl:text>| GPU | L1 and shared | L2 | DRAM | t_L1 (µs) | t_L2 (µs) | t_DRAM (µs) | L1 keeps (%) | Footprint in L2 (%) |</xsl:text>
      <xsl:value-of select="$nl"/>
      <xsl:text>| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |</xsl:text>
      <xsl:value-of select="$nl"/>
      <xsl:for-each select="estimates/estimate">
        <xsl:value-of select="concat('| ', rc:md(@gpu-name), ' | ', @l1-bytes-text, ' | ', @l2-bytes-text, ' | ',
                                     @dram-bytes-text, ' | ', @t-l1-text, ' | ', @t-l2-text, ' | ', @t-dram-text, ' | ',
                                     @l1-hit-percent-text, ' | ', @l2-fit-percent-text, ' |', $nl)"/>
      </xsl:for-each>
      <xsl:value-of select="$nl"/>
      <xsl:text>The rule: L1 and shared memory see every sector moved, plus 128 bytes per shared-memory wavefront. L1 keeps what a block reuses while the most one block touches (</xsl:text>
      <xsl:value-of select="$m/@block-footprint-max-text"/>
      <xsl:text> bytes) fits its share of an SM's L1 (the L1 divided among the blocks resident on the SM); beyond that, the share it keeps falls in proportion. What it does not keep goes to L2: L2 bytes = each block's distinct sectors, summed, plus the rest of the sectors moved times the share L1 misses. DRAM moves the footprint once when it fits the L2, and a growing part of the L2 traffic, in proportion, as it outgrows the L2. This rule is roofcast's assumption, after the hierarchical roofline (Yang, Kurth and Williams, 2020) and published L1 microbenchmarks; the L1 and L2 bandwidths are the GPU file's, marked there where assumed.</xsl:text>
      <xsl:value-of select="concat($nl, $nl)"/>
    </xsl:if>
  </xsl:template>

  <xsl:template name="memory-cells">
    <xsl:value-of select="concat(@requests-text, ' | ', @accessed-bytes-text, ' B | ', @sector-bytes-text, ' B | ',
                                 @sectors-per-request-text, ' | ', @efficiency-percent-text, ' | ',
                                 @footprint-bytes-text, ' B | ', @shared-wavefronts-text, ' |', $nl)"/>
  </xsl:template>
</xsl:stylesheet>
