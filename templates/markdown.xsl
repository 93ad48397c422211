<?xml version="1.0" encoding="UTF-8"?>
<!-- markdown.xsl: one kernel's report in Markdown (CommonMark + GFM tables),
     from the results tree (see src/results.h). Every figure printed here is a
     *-text attribute of the tree: the template formats nothing itself (it
     only counts the [n] that tie appendix A's device figures to their
     sources in appendix B). Past its appendices A and B, appendix C holds
     the kernel's source, so that the report before them stays short.
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
  <!-- The device figures appendix A shows, by source: each source is
       listed once in appendix B and referred to by its number. -->
  <xsl:key name="device-source"
           match="/roofcast-results/gpus/gpu/execution/figure[@name = 'dram-bandwidth' or @name = 'dram-latency' or @name = 'launch-back-to-back']"
           use="@source"/>
  <!-- The GPUs the kernel has an estimate on (not those it cannot launch on), whose device
       figures appendix A shows, and those figures' distinct sources in document order. -->
  <xsl:variable name="estimated" select="/roofcast-results/kernels/kernel[@id = $kernel-id]/estimates/estimate/@gpu"/>
  <xsl:variable name="device-sources"
                select="$gpus[@id = $estimated]/execution/figure[@name = 'dram-bandwidth' or @name = 'dram-latency' or @name = 'launch-back-to-back']
                        [generate-id() = generate-id(key('device-source', @source)[../../@id = $estimated][1])]"/>

  <xsl:template match="/">
    <xsl:apply-templates select="/roofcast-results/kernels/kernel[@id = $kernel-id]"/>
  </xsl:template>

  <xsl:template match="kernel">
    <xsl:variable name="model" select="counts[@basis = 'model']"/>
    <!-- Section 1 lists the work model statement by statement, and the list grows with the
         model. The report keeps it where the whole report, list included, stays within 2,000
         words before the appendix and 5,000 in all (the budget of cli_glance's test); where it
         would not (a register-tiled SGEMM, a stencil whose guards nest on many GPUs), the list
         is left to the HTML report and results.xml, which keep every count. The rest of the
         report is rendered first and its words counted, so that the choice holds for every
         input, not for the inputs a threshold was measured on. Words are counted as wc -w
         counts them. -->
    <xsl:variable name="work-list">
      <xsl:apply-templates select="$model/work/*">
        <xsl:with-param name="indent" select="''"/>
      </xsl:apply-templates>
    </xsl:variable>
    <xsl:variable name="head">
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
      <xsl:choose>
        <xsl:when test="glance/@order = 't-estimate'">
          <xsl:text>Sections 1 to 5 derive t_total by the reference reports' peak-roofline method; appendix A derives t_estimate, B gives the figures' sources and C the kernel's source.</xsl:text>
          <xsl:value-of select="concat($nl, $nl)"/>
        </xsl:when>
        <xsl:otherwise>
          <xsl:text>This report estimates the time of one launch of </xsl:text>
          <xsl:value-of select="rc:code(@name)"/>
          <xsl:text> from its declared work, counted exactly over the launched threads, and the figures of each GPU (section 2 says where each comes from):</xsl:text>
          <xsl:value-of select="concat($nl, $nl)"/>
          <xsl:call-template name="gpu-list"/>
        </xsl:otherwise>
      </xsl:choose>
      <xsl:if test="$chart-images != '' and estimates/estimate">
        <xsl:text>![Roofline of </xsl:text>
        <xsl:value-of select="rc:md(@name)"/>
        <xsl:value-of select="concat('](', @id, '-roofline.', $chart-images, ')', $nl, $nl)"/>
      </xsl:if>

      <xsl:call-template name="configuration"/>
    </xsl:variable>
    <xsl:variable name="section1-full">
      <xsl:call-template name="work-analysis">
        <xsl:with-param name="model" select="$model"/>
        <xsl:with-param name="work-list" select="$work-list"/>
      </xsl:call-template>
    </xsl:variable>
    <xsl:variable name="rest-before">
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
        <xsl:text>Plan with t_estimate ("At a glance"): </xsl:text>
        <xsl:value-of select="$rows[1]/@t-estimate-text"/>
        <xsl:if test="count($rows) &gt; 1">
          <xsl:value-of select="concat(' to ', $rows[last()]/@t-estimate-text)"/>
        </xsl:if>
        <xsl:text> µs per launch</xsl:text>
        <xsl:text>, what a profiler shows for this launch queued among others; t_lower is a bound no run can beat, to check a measurement against. t_total, the peak roofline of sections 1 to 3, compares GPUs on their datasheets as the reference reports do</xsl:text>
        <xsl:call-template name="one-bound"/>
        <xsl:value-of select="concat(':', $nl, $nl)"/>
      </xsl:if>
      <xsl:if test="not(glance/@order = 't-estimate')">
        <xsl:text>Predicted time per launch of </xsl:text>
        <xsl:value-of select="rc:code(@name)"/>
        <xsl:call-template name="one-bound"/>
        <xsl:text>:</xsl:text>
        <xsl:value-of select="concat($nl, $nl)"/>
      </xsl:if>
      <xsl:for-each select="estimates/estimate">
        <xsl:text>- </xsl:text>
        <xsl:value-of select="rc:md(@gpu-name)"/>
        <!-- The lead-in names t_total when it first states t_estimate. -->
        <xsl:choose>
          <xsl:when test="../../glance/@order = 't-estimate'">: </xsl:when>
          <xsl:otherwise>: t_total </xsl:otherwise>
        </xsl:choose>
        <xsl:value-of select="@t-total-text"/>
        <xsl:text> µs</xsl:text>
        <xsl:choose>
          <xsl:when test="$model/flops/@total = 0 and $model/bytes/@total = 0">, all of it launch latency, as no work is counted</xsl:when>
          <xsl:when test="count(../estimate[@bound = current()/@bound]) = count(../estimate) and count(../estimate) &gt; 1"/>
          <xsl:otherwise>
            <xsl:value-of select="concat(', ', @bound, ' bound')"/>
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
      <xsl:text>These are peak-roofline estimates from the declared work and the GPUs' figures, not measurements, and neither an upper nor a lower bound on the measured time.</xsl:text>
      <xsl:value-of select="$nl"/>
      <xsl:apply-templates select="changes"/>
      <xsl:if test="estimates/estimate/refined">
        <xsl:value-of select="$nl"/>
      </xsl:if>
    </xsl:variable>
    <xsl:variable name="appendices">
      <xsl:call-template name="refined-estimate"/>
      <xsl:call-template name="figure-sources"/>
      <xsl:if test="glance/@order = 't-estimate'">
        <xsl:value-of select="$nl"/>
        <xsl:text>## Appendix C. The kernel's source</xsl:text>
        <xsl:value-of select="concat($nl, $nl)"/>
        <xsl:call-template name="source"/>
      </xsl:if>
    </xsl:variable>
    <xsl:variable name="words-before"
                  select="rc:words(concat($head, $section1-full, $rest-before))"/>
    <xsl:value-of select="$head"/>
    <xsl:choose>
      <xsl:when test="glance/@order = 't-estimate' and
                      ($words-before &gt; 2000 or $words-before + rc:words($appendices) &gt; 5000)">
        <xsl:call-template name="work-analysis">
          <xsl:with-param name="model" select="$model"/>
          <xsl:with-param name="work-list" select="$work-list"/>
          <xsl:with-param name="list-left-out" select="true()"/>
        </xsl:call-template>
      </xsl:when>
      <xsl:otherwise>
        <xsl:value-of select="$section1-full"/>
      </xsl:otherwise>
    </xsl:choose>
    <xsl:value-of select="$rest-before"/>
    <xsl:value-of select="$appendices"/>
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
        <xsl:text>Per launch, fastest first by t_estimate, the estimate to plan with</xsl:text>
        <xsl:if test="row[@fastest = 'yes']"> (bold: within 10 % of the fastest)</xsl:if>
        <xsl:text>; t_lower: no run is faster; t_total: the peak roofline of sections 1 to 5.</xsl:text>
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
    <xsl:value-of select="concat('Grid ', launch/@grid, ' → ')"/>
    <xsl:call-template name="count">
      <xsl:with-param name="a" select="launch/@blocks"/>
      <xsl:with-param name="one" select="'block'"/>
    </xsl:call-template>
    <xsl:value-of select="concat('; block ', launch/@block, ' → ')"/>
    <xsl:call-template name="count">
      <xsl:with-param name="a" select="launch/@threads-per-block"/>
      <xsl:with-param name="one" select="'thread'"/>
    </xsl:call-template>
    <xsl:text> per block; </xsl:text>
    <xsl:call-template name="count">
      <xsl:with-param name="a" select="launch/@threads"/>
      <xsl:with-param name="one" select="'thread'"/>
    </xsl:call-template>
    <xsl:text> launched.</xsl:text>
    <xsl:for-each select="params/param">
      <xsl:choose>
        <xsl:when test="position() = 1"> Parameters: </xsl:when>
        <xsl:otherwise>, </xsl:otherwise>
      </xsl:choose>
      <xsl:value-of select="concat(rc:code(@name), ' = ', @value-text)"/>
      <xsl:if test="@note">
        <xsl:value-of select="concat(' (', rc:md(@note), ')')"/>
      </xsl:if>
      <xsl:if test="position() = last()">.</xsl:if>
    </xsl:for-each>
    <xsl:value-of select="concat($nl, $nl)"/>
    <xsl:if test="notes/note">
      <xsl:for-each select="notes/note">
        <xsl:value-of select="concat('- ', rc:md(.), $nl)"/>
      </xsl:for-each>
      <xsl:value-of select="$nl"/>
    </xsl:if>
    <xsl:choose>
      <xsl:when test="glance/@order = 't-estimate'"/>
      <xsl:otherwise>
        <xsl:call-template name="source"/>
        <xsl:value-of select="$nl"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- The kernel's source in a fence it cannot close. -->
  <xsl:template name="source">
    <xsl:variable name="fence" select="rc:fence(source)"/>
    <xsl:value-of select="concat($fence, rc:md-info(source/@language), $nl)"/>
    <xsl:value-of select="source"/>
    <xsl:value-of select="concat($nl, $fence, $nl)"/>
  </xsl:template>

  <!-- 1. Work analysis: every count derived step by step. -->
  <xsl:template name="work-analysis">
    <xsl:param name="model"/>
    <xsl:param name="work-list"/>
    <xsl:param name="list-left-out" select="false()"/>
    <xsl:text>## 1. Work analysis</xsl:text>
    <xsl:value-of select="concat($nl, $nl)"/>
    <xsl:text>The work model is counted exactly over every launched thread. </xsl:text>
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
            <xsl:text>, and was run over </xsl:text>
            <xsl:value-of select="$model/evaluation/@runs-text"/>
            <xsl:text> ranges of them, in each of which every thread does the same work (</xsl:text>
            <xsl:value-of select="$model/threads/@launched-text"/>
            <xsl:text> threads in all).</xsl:text>
          </xsl:otherwise>
        </xsl:choose>
      </xsl:otherwise>
    </xsl:choose>
    <xsl:value-of select="concat($nl, $nl)"/>
    <xsl:choose>
      <xsl:when test="$list-left-out">
        <xsl:text>Its statements, each with its counts, are too many for this Markdown report: the HTML report (format html) and results.xml (format xml) list them.</xsl:text>
        <xsl:value-of select="$nl"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:value-of select="$work-list"/>
      </xsl:otherwise>
    </xsl:choose>
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
    <!-- Where the model's assumptions and the launch disagree, section 4 says by how much. -->
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

  <!-- "Instructions on pipe `conversion`, 4,096 warp instructions of 32 results: 128 per
       execution × ..." (warp instructions: what the pipe serves, refine.h). -->
  <xsl:template match="instructions">
    <xsl:param name="indent"/>
    <xsl:value-of select="concat($indent, '- Instructions on pipe ', rc:code(@pipe), ', ',
                                 @warp-instructions-text, ' warp instruction')"/>
    <xsl:if test="@warp-instructions != 1">s</xsl:if>
    <xsl:text> of 32 results</xsl:text>
    <xsl:call-template name="note"/>
    <xsl:choose>
      <xsl:when test="@per-execution">
        <xsl:value-of select="concat(': ', @per-execution-text, ' per execution × ')"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:value-of select="concat(': ', rc:code(@count), ' per execution, summed over ')"/>
      </xsl:otherwise>
    </xsl:choose>
    <xsl:call-template name="executions-total">
      <xsl:with-param name="total" select="@total-instructions"/>
      <xsl:with-param name="one" select="'instruction'"/>
    </xsl:call-template>
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
      <!-- Shared memory is not memory traffic in the peak roofline: its
           zero bytes are not spelled out, only how often it runs. -->
      <xsl:when test="@space = 'shared' and @total-bytes = 0">
        <xsl:text>: </xsl:text>
        <xsl:call-template name="count">
          <xsl:with-param name="a" select="@executions"/>
          <xsl:with-param name="one" select="'execution'"/>
        </xsl:call-template>
        <xsl:value-of select="concat(', not counted as memory traffic.', $nl)"/>
      </xsl:when>
      <xsl:when test="@per-execution">
        <xsl:text>: </xsl:text>
        <xsl:if test="@element-count != 1">
          <xsl:value-of select="concat(@element-count-text, ' × ')"/>
          <xsl:call-template name="count">
            <xsl:with-param name="a" select="@element-bytes"/>
            <xsl:with-param name="one" select="'byte'"/>
          </xsl:call-template>
          <xsl:text> = </xsl:text>
        </xsl:if>
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

  <!-- "Barrier (`__syncthreads()`)." Its counts are the loop's around it; results.xml and the
       HTML report give them (the Markdown keeps to its word budget). -->
  <xsl:template match="barrier">
    <xsl:param name="indent"/>
    <xsl:value-of select="concat($indent, '- Barrier (', rc:code('__syncthreads()'), ')')"/>
    <xsl:call-template name="note"/>
    <xsl:if test="@executions = 0">: never reached</xsl:if>
    <xsl:value-of select="concat('.', $nl)"/>
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
    <xsl:text>Appendix B gives their sources and what each assumed figure stands for.</xsl:text>
    <xsl:value-of select="concat($nl, $nl)"/>
  </xsl:template>

  <!-- Appendix B: where the GPUs' figures come from, each source once. A
       sentence that opens the sources of several GPUs ("NVIDIA's published
       figures ...") is said once for all of them; the device figures'
       sources are numbered as appendix A refers to them. -->
  <xsl:template name="figure-sources">
    <xsl:if test="$gpus">
      <xsl:text>## Appendix B. Sources of the GPU figures</xsl:text>
      <xsl:value-of select="concat($nl, $nl)"/>
      <xsl:variable name="shared">
        <xsl:call-template name="shared-source">
          <xsl:with-param name="gpus" select="$gpus"/>
        </xsl:call-template>
      </xsl:variable>
      <xsl:if test="$shared != ''">
        <xsl:variable name="who">
          <xsl:call-template name="sharing-gpus">
            <xsl:with-param name="gpus" select="$gpus"/>
            <xsl:with-param name="shared" select="$shared"/>
          </xsl:call-template>
        </xsl:variable>
        <xsl:value-of select="concat('- ', rc:md($who), ': ', rc:md($shared), $nl)"/>
      </xsl:if>
      <xsl:for-each select="$gpus">
        <xsl:value-of select="concat('- ', rc:md(@name))"/>
        <xsl:if test="rc:figures(., 'memory')">
          <xsl:value-of select="concat(' (', rc:md(rc:figures(., 'memory')/@value-text), ')')"/>
        </xsl:if>
        <xsl:variable name="own">
          <xsl:call-template name="own-source">
            <xsl:with-param name="shared" select="$shared"/>
          </xsl:call-template>
        </xsl:variable>
        <xsl:value-of select="concat(': ', rc:md($own), $nl)"/>
      </xsl:for-each>
      <xsl:apply-templates select="$gpus/figure[@origin = 'assumed']" mode="assumed"/>
      <xsl:if test="$device-sources and estimates/estimate/refined">
        <xsl:value-of select="$nl"/>
        <xsl:text>The device figures of appendix A:</xsl:text>
        <xsl:value-of select="concat($nl, $nl)"/>
        <xsl:for-each select="$device-sources">
          <xsl:value-of select="concat('- [', position(), '] ')"/>
          <xsl:choose>
            <xsl:when test="starts-with(@source, 'assumed: ')">
              <xsl:value-of select="concat(rc:md(concat('Assumed: ', substring-after(@source, 'assumed: '))), $nl)"/>
            </xsl:when>
            <xsl:otherwise>
              <xsl:value-of select="concat(rc:md(@source), $nl)"/>
            </xsl:otherwise>
          </xsl:choose>
        </xsl:for-each>
      </xsl:if>
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

  <!-- Appendix A, the refined estimate: the method in brief, then two tables
       (how each GPU runs the launch and its longest term; the device figures,
       each with the number of its source in appendix B) and the longest
       term's inputs. results.xml keeps every term with its inputs. -->
  <xsl:template name="refined-estimate">
    <xsl:if test="estimates/estimate/refined">
      <xsl:text>## Appendix A. How the refined estimate was computed</xsl:text>
      <xsl:value-of select="concat($nl, $nl)"/>
      <xsl:text>What this launch can use of each GPU, plus a launch queued back to back (t_lower: the fewer of bytes and sectors at the L1 peak, FLOPs and the longest thread's FMAs at 1.35 times peak and clock):</xsl:text>
      <xsl:value-of select="concat($nl, $nl)"/>
      <xsl:text>- blocks per SM by the CUDA occupancy rules; waves = ceil(blocks / (SMs × blocks per SM)), the last costing a full one (wave factor)</xsl:text>
      <xsl:value-of select="$nl"/>
      <xsl:text>- t_compute = FLOPs / (peak × active SMs / SMs × min(1, warps per SM / 4)) × wave factor</xsl:text>
      <xsl:if test="estimates/estimate/refined/term[starts-with(@name, 'compute-')][@slot-flops]">
        <xsl:text>; fused="false" FLOPs count 2</xsl:text>
      </xsl:if>
      <xsl:if test="estimates/estimate/refined/term[starts-with(@name, 'compute-')][@dependent-slot-flops]">
        <xsl:text>; dependent loops: min(1, warps per SM / 4 / latency), 32 lanes a scheduler</xsl:text>
      </xsl:if>
      <xsl:value-of select="$nl"/>
      <xsl:text>- t_level = bytes / (little^-2 + sustained^-2)^-1/2 × wave factor (DRAM, L2: if Little-bound), little = bytes in flight</xsl:text>
      <xsl:if test="estimates/estimate/refined/term[@in-flight-share]"><xsl:text> (counted in the level's bytes)</xsl:text></xsl:if>
      <xsl:variable name="flight" select="(estimates/estimate/refined/flight)[1]"/>
      <xsl:text> / (</xsl:text>
      <xsl:value-of select="format-number($flight/@round-factor, '0.##')"/>
      <xsl:text> latency + (</xsl:text>
      <xsl:value-of select="round($flight/@start-end * 1e9)"/>
      <xsl:text> ns − </xsl:text>
      <xsl:value-of select="format-number($flight/@round-factor - 1, '0.##')"/>
      <xsl:text> latency) / rounds</xsl:text>
      <xsl:if test="estimates/estimate/refined/flight/@barriers"><xsl:text> + barriers / rounds (DRAM, L2)</xsl:text></xsl:if>
      <xsl:text>); DRAM bytes are 0 when the footprint fits its share of the L2 (93 % on Ada, else 3/4; measured on Ada, A100, H100), else at most one footprint</xsl:text>
      <xsl:if test="counts[@basis = 'model']/memory/@rewritten-bytes &gt; 0">
        <xsl:text>, with the bytes both read and written again,</xsl:text>
      </xsl:if>
      <xsl:text> a wave (assumed)</xsl:text>
      <xsl:value-of select="$nl"/>
      <xsl:if test="estimates/estimate/refined/term[@name = 'shared']">
        <xsl:text>- t_shared = max(wavefronts (conflicts counted by generation) / wavefronts a clock, requests × load/store clocks a request) / (active SMs × SM clock) × wave factor</xsl:text>
        <xsl:value-of select="$nl"/>
      </xsl:if>
      <xsl:if test="estimates/estimate/refined/term[@name = 'atomics']">
        <xsl:text>- t_atomics = the atomic (request, line) pairs of the hottest array / its lines / (operations a line serves a clock × SM clock): a line serves its atomics one at a time (the one-address rate assumed)</xsl:text>
        <xsl:if test="estimates/estimate/refined/term[@name = 'atomics'][@lane-updates &gt; 0]">
          <xsl:text>; where lanes add values of their own (operand="per-lane"), each further update of a request's busiest address takes its turn at the generation's lane-by-lane rate for the array's element type (measured or assumed: the term's inputs say which)</xsl:text>
        </xsl:if>
        <xsl:if test="estimates/estimate/refined/term[@name = 'atomics'][@multiword-pairs &gt; 0]">
          <xsl:text>; a pair of several addresses holds its line longer (a few-lines microbenchmark's rate)</xsl:text>
        </xsl:if>
        <xsl:value-of select="$nl"/>
      </xsl:if>
      <xsl:text>- t_thread = the longest thread's FLOPs / 2 × cycles an instruction / SM clock</xsl:text>
      <xsl:if test="estimates/estimate/refined/term[starts-with(@name, 'compute-')][@slot-flops]">
        <xsl:text>; fused="false" FLOPs count 2</xsl:text>
      </xsl:if>
      <xsl:value-of select="$nl"/>
      <!-- Only kernels with dependent loops have a chain term: the others' reports stay as they were. -->
      <xsl:if test="estimates/estimate/refined/term[@name = 'chain']">
        <xsl:text>- t_chain = the longest thread's dependent iterations × cycles an iteration / SM clock: one L1 hit (its latency) for an iteration that loads, else its FLOPs / 2 FMA instructions (at least one) at the generation's dependent-FMA latency (Arafa et al.'s measurements, assumed on generations they did not measure); t_lower counts one L1 hit or one instruction an iteration where the figure is not assumed</xsl:text>
        <xsl:value-of select="$nl"/>
      </xsl:if>
      <!-- Only kernels with <instructions> have pipe terms: the others' reports stay as they were. -->
      <xsl:if test="estimates/estimate/refined/term[starts-with(@name, 'pipe-')]">
        <xsl:text>- t_pipe = 32 × warp instructions / (the pipe's results per clock per SM × active SMs × SM clock) × wave factor, for each pipe of the instructions statements (CUDA C++ Programming Guide, throughput of native arithmetic instructions; a warp takes the pipe for all its lanes); t_lower counts it at 1.35 times a published rate</xsl:text>
        <xsl:if test="estimates/estimate/refined/term[@fp64-time]">
          <xsl:text>; 64-bit conversions add the FP64 FLOPs' term (one unit: assumed)</xsl:text>
        </xsl:if>
        <xsl:if test="estimates/estimate/refined/term[@xu-time]">
          <xsl:text>; special functions and conversions add up (one unit, the XU)</xsl:text>
        </xsl:if>
        <xsl:value-of select="$nl"/>
      </xsl:if>
      <!-- Only GPUs whose generation has a measured block rate have a blocks term; the
           Markdown, held to 5,000 words, names it where it sets an estimate (the HTML and
           results.xml wherever it is). -->
      <xsl:if test="estimates/estimate[@limiter = 'blocks']">
        <xsl:text>- t_blocks = the grid's blocks / (blocks the GPU starts a clock × SM clock), across all its SMs (measured on GP100 and GV100 only; not in t_lower)</xsl:text>
        <xsl:value-of select="$nl"/>
      </xsl:if>
      <xsl:text>- t_estimate = the longest of these + the launch back to back (the second table)</xsl:text>
      <xsl:value-of select="concat($nl, $nl)"/>
      <xsl:text>| GPU | Occupancy (%) | Blocks per SM (limit) | Active SMs | Waves | Longest term (µs) | t_estimate (µs) |</xsl:text>
      <xsl:value-of select="$nl"/>
      <xsl:text>| --- | ---: | --- | ---: | ---: | --- | ---: |</xsl:text>
      <xsl:value-of select="$nl"/>
      <xsl:for-each select="estimates/estimate">
        <xsl:variable name="r" select="refined"/>
        <xsl:variable name="longest" select="$r/term[not(../term/@time &gt; @time)][1]"/>
        <xsl:value-of select="concat('| ', rc:md(@gpu-name), ' | ', $r/occupancy/@percent-text, ' | ',
                                     $r/occupancy/@blocks-per-sm-text, ' (', $r/occupancy/@limit, ') | ',
                                     $r/waves/@active-sms-text, ' of ', $r/waves/@sms-text, ' | ',
                                     $r/waves/@waves-text, ' | ', $longest/@name, ' ', $longest/@time-text, ' | ', @t-estimate-text, ' |', $nl)"/>
      </xsl:for-each>
      <xsl:value-of select="$nl"/>
      <xsl:text>The longest term's inputs (results.xml keeps every term's):</xsl:text>
      <xsl:value-of select="concat($nl, $nl)"/>
      <xsl:for-each select="estimates/estimate">
        <xsl:variable name="longest" select="refined/term[not(../term/@time &gt; @time)][1]"/>
        <xsl:value-of select="concat('- ', rc:md(@gpu-name), ': ', rc:md($longest/@inputs), $nl)"/>
      </xsl:for-each>
      <xsl:value-of select="$nl"/>
      <xsl:text>The device figures, [n] being the source's number in appendix B:</xsl:text>
      <xsl:value-of select="concat($nl, $nl)"/>
      <xsl:text>| GPU | Sustained DRAM bandwidth | DRAM latency | Launch, back to back |</xsl:text>
      <xsl:value-of select="$nl"/>
      <xsl:text>| --- | ---: | ---: | ---: |</xsl:text>
      <xsl:value-of select="$nl"/>
      <xsl:for-each select="estimates/estimate">
        <xsl:variable name="id" select="@gpu"/>
        <xsl:value-of select="concat('| ', rc:md(@gpu-name))"/>
        <xsl:variable name="execution" select="$gpus[@id = $id]/execution"/>
        <xsl:apply-templates select="rc:figures($execution, 'dram-bandwidth')" mode="device-cell"/>
        <xsl:apply-templates select="rc:figures($execution, 'dram-latency')" mode="device-cell"/>
        <xsl:apply-templates select="rc:figures($execution, 'launch-back-to-back')" mode="device-cell"/>
        <xsl:value-of select="concat(' |', $nl)"/>
      </xsl:for-each>
      <xsl:value-of select="$nl"/>
      <xsl:call-template name="memory-traffic">
        <xsl:with-param name="model" select="counts[@basis = 'model']"/>
      </xsl:call-template>
    </xsl:if>
  </xsl:template>

  <!-- A device figure's cell: " | 255 GB/s (assumed) [4]". -->
  <xsl:template match="figure" mode="device-cell">
    <xsl:value-of select="concat(' | ', @value-text)"/>
    <xsl:if test="@origin = 'assumed'"> (assumed)</xsl:if>
    <xsl:text> [</xsl:text>
    <xsl:call-template name="device-source-number"/>
    <xsl:text>]</xsl:text>
  </xsl:template>

  <!-- The number of the context figure's source among $device-sources
       (appendix B lists them in document order). -->
  <xsl:template name="device-source-number">
    <xsl:variable name="first" select="key('device-source', @source)[../../@id = $estimated][1]"/>
    <xsl:value-of select="count($device-sources[count(. | $first/preceding::figure) = count($first/preceding::figure)]) + 1"/>
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
      <xsl:text>A request is one access by the active lanes of a warp (32 consecutive threads, x fastest) at one iteration of every loop around it; a sector is 32 bytes. Sectors moved sums each request's distinct sectors; the footprint, the launch's.</xsl:text>
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
      <xsl:text>Each level's bytes (results.xml also gives their time at each level's bandwidth):</xsl:text>
      <xsl:value-of select="concat($nl, $nl)"/>
      <xsl:text>| GPU | L1 and shared | L2 | DRAM | L1 keeps (%) | Footprint in L2 (%) |</xsl:text>
      <xsl:value-of select="$nl"/>
      <xsl:text>| --- | ---: | ---: | ---: | ---: | ---: |</xsl:text>
      <xsl:value-of select="$nl"/>
      <xsl:for-each select="estimates/estimate">
        <xsl:value-of select="concat('| ', rc:md(@gpu-name), ' | ', @l1-bytes-text, ' | ', @l2-bytes-text, ' | ',
                                     @dram-bytes-text, ' | ', @l1-hit-percent-text, ' | ', @l2-fit-percent-text, ' |', $nl)"/>
      </xsl:for-each>
      <xsl:value-of select="$nl"/>
      <xsl:text>The rule, roofcast's assumption after the hierarchical roofline (Yang, Kurth and Williams, 2020): L1 sees every sector moved plus 128 bytes per shared-memory wavefront, and keeps</xsl:text>
      <!-- the share kept comes from a run of one SM's L1 (l1sim.h) on the GPUs whose estimate
           has an l1-run, from the footprint rule on the others; words are few here, since the
           longest validation reports are near the word budget (glance.sh) -->
      <xsl:if test="estimates/estimate/l1-run">
        <xsl:text> what a block touches again while a run of one SM's L1 still holds it (warps in turn, LRU 128-byte lines)</xsl:text>
        <xsl:if test="estimates/estimate[not(l1-run)]">
          <xsl:text>; elsewhere, all while one block's touches (</xsl:text>
          <xsl:value-of select="$m/@block-footprint-max-text"/>
          <xsl:text> bytes) fit its L1 share, less beyond</xsl:text>
        </xsl:if>
      </xsl:if>
      <xsl:if test="not(estimates/estimate/l1-run)">
        <xsl:text> what a block reuses while the most one block touches (</xsl:text>
        <xsl:value-of select="$m/@block-footprint-max-text"/>
        <xsl:text> bytes) fits its share of the SM's L1, less beyond</xsl:text>
      </xsl:if>
      <xsl:text>. L2 bytes = stored sectors, each block's other distinct sectors, the rest times L1's miss share. DRAM moves the footprint once while it fits the L2, a growing part of L2 traffic beyond.</xsl:text>
      <xsl:if test="$m/@rewritten-bytes &gt; 0">
        <xsl:value-of select="concat(' Of the footprint, ', $m/@rewritten-bytes-text,
                                     ' bytes are both read and written: DRAM moves them twice, read in and written back.')"/>
      </xsl:if>
      <xsl:if test="estimates/estimate/refined/level-bytes[@fetched &gt; 1.005 * @footprint]">
        <xsl:text> DRAM fetches a sector the L2 misses with the other half of its 64-byte half-line (measured on Turing, assumed on the other generations); this kernel reads sectors that lie alone in theirs, so DRAM fetches more than the footprint, at most twice it.</xsl:text>
      </xsl:if>
      <xsl:if test="estimates/estimate[@l1-read-only = 'yes']">
        <!-- not by compute capability (arch.c's rc_sm_pipes says which), and not "read-only
             arrays": one never written but read-only-path="no" is not kept -->
        <xsl:text> Where L1 caches only the read-only path, it keeps only arrays read that way.</xsl:text>
      </xsl:if>
      <xsl:value-of select="concat($nl, $nl)"/>
    </xsl:if>
  </xsl:template>

  <xsl:template name="memory-cells">
    <xsl:value-of select="concat(@requests-text, ' | ', @accessed-bytes-text, ' B | ', @sector-bytes-text, ' B | ',
                                 @sectors-per-request-text, ' | ', @efficiency-percent-text, ' | ',
                                 @footprint-bytes-text, ' B | ', @shared-wavefronts-text, ' |', $nl)"/>
  </xsl:template>
</xsl:stylesheet>
