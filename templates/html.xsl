<?xml version="1.0" encoding="UTF-8"?>
<!-- html.xsl: one kernel's report as one self-contained HTML page, from the
     results tree (see src/results.h), with the same sections as
     markdown.xsl. Every number printed here is a *-text attribute of the
     tree: the template formats nothing itself.

     Self-contained: the style is inline, there is no script, and nothing is
     fetched. The charts come in the tree as <kernel><charts><chart kind=...>
     (added by src/render/render_html.c); each <img data-roofcast-chart="KIND">
     gets its src="data:image/svg+xml;base64,..." there once the transform
     is done, so their ids cannot clash with the page's or each other's.

     Text from the inputs is only ever written with xsl:value-of, which the
     html output method escapes; disable-output-escaping is never used.
     Parameter kernel-id picks the kernel. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:rc="urn:roofcast" exclude-result-prefixes="rc">
  <xsl:output method="html" encoding="UTF-8" indent="no"
              doctype-system="about:legacy-compat"/>
  <xsl:param name="kernel-id"/>

  <xsl:include href="html-style.xsl"/>
  <xsl:include href="html-gpus.xsl"/>
  <xsl:include href="words.xsl"/>

  <xsl:variable name="gpus" select="/roofcast-results/gpus/gpu"/>

  <xsl:template match="/">
    <xsl:apply-templates select="/roofcast-results/kernels/kernel[@id = $kernel-id]"/>
  </xsl:template>

  <xsl:template match="kernel">
    <xsl:variable name="model" select="counts[@basis = 'model']"/>
    <html lang="en">
      <head>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <title><xsl:value-of select="@name"/>: execution time estimates</title>
        <xsl:call-template name="style"/>
      </head>
      <body>
        <p class="screen-only"><a href="index.html">All kernels</a></p>
        <h1>
          <xsl:value-of select="@name"/>
          <xsl:text>: execution time estimates on </xsl:text>
          <xsl:value-of select="count($gpus)"/>
          <xsl:text> GPU</xsl:text>
          <xsl:if test="count($gpus) != 1">s</xsl:if>
        </h1>
        <p><xsl:value-of select="summary"/>.</p>
        <xsl:apply-templates select="glance[row]"/>
        <!-- A launch that runs on none of the GPUs (issue 30): that is the answer, so it comes first. -->
        <xsl:if test="cannot-launch and not(estimates/estimate)">
          <section id="glance" class="glance">
            <h2>At a glance</h2>
            <p>This launch cannot run on any of the <xsl:value-of select="count(cannot-launch)"/> GPUs, so nothing is estimated:</p>
            <ul>
              <xsl:for-each select="cannot-launch">
                <li><xsl:value-of select="@gpu-name"/>: <xsl:value-of select="@reason"/></li>
              </xsl:for-each>
            </ul>
          </section>
        </xsl:if>
        <p>
          <xsl:text>This report estimates the time of one launch of </xsl:text>
          <code><xsl:value-of select="@name"/></code>
          <xsl:text> from its declared work, counted exactly over the launched threads, and the figures of each GPU</xsl:text>
          <xsl:choose>
            <xsl:when test="glance/@order = 't-estimate'">
              <xsl:text> (section 2; appendix B says where each comes from). Sections 1 to 5 follow the reference reports' peak-roofline method: every FLOP at the FP32 peak and every byte at the datasheet bandwidth of the whole GPU, plus a fixed launch latency (t_total). Appendix A derives the refined estimate.</xsl:text>
            </xsl:when>
            <xsl:otherwise>
              <xsl:text> (section 2 says where each comes from):</xsl:text>
            </xsl:otherwise>
          </xsl:choose>
        </p>
        <xsl:if test="not(glance/@order = 't-estimate')">
          <ul>
            <xsl:for-each select="$gpus">
              <li>
                <xsl:value-of select="@name"/>
                <xsl:if test="rc:figures(., 'memory')">
                  <xsl:value-of select="concat(' (', rc:figures(., 'memory')/@value-text, ')')"/>
                </xsl:if>
              </li>
            </xsl:for-each>
          </ul>
        </xsl:if>
        <nav class="toc" aria-label="Contents">
          <ul>
            <xsl:if test="glance/row">
              <li><a href="#glance">At a glance</a></li>
            </xsl:if>
            <li><a href="#configuration">Configuration and source</a></li>
            <li><a href="#work">1. Work analysis</a></li>
            <xsl:if test="counts[@basis = 'launch']">
              <li><a href="#assumptions">Assumptions and the launch</a></li>
            </xsl:if>
            <li><a href="#gpus">2. GPU specifications used</a></li>
            <li><a href="#time">3. Time estimates</a></li>
            <li><a href="#interpretation">4. Interpretation</a></li>
            <li><a href="#conclusion">5. Conclusion</a></li>
            <xsl:if test="changes">
              <li><a href="#changes">Changes since the baseline</a></li>
            </xsl:if>
            <xsl:if test="estimates/estimate/refined">
              <li><a href="#refined">Appendix A. How the refined estimate was computed</a></li>
            </xsl:if>
          </ul>
        </nav>
        <xsl:apply-templates select="charts/chart[@kind = 'roofline']"/>

        <xsl:call-template name="configuration"/>
        <xsl:call-template name="work-analysis">
          <xsl:with-param name="model" select="$model"/>
        </xsl:call-template>
        <xsl:call-template name="gpu-table"/>
        <xsl:call-template name="time-estimates">
          <xsl:with-param name="model" select="$model"/>
        </xsl:call-template>
        <xsl:if test="not(glance/@order = 't-estimate')">
          <xsl:call-template name="memory-traffic">
            <xsl:with-param name="model" select="$model"/>
          </xsl:call-template>
        </xsl:if>

        <section id="interpretation">
          <h2>4. Interpretation</h2>
          <xsl:for-each select="interpretation/p">
            <p><xsl:value-of select="."/></p>
          </xsl:for-each>
        </section>

        <section id="conclusion">
          <h2>5. Conclusion</h2>
          <xsl:variable name="rows" select="glance/row"/>
          <xsl:if test="glance/@order = 't-estimate'">
            <p>
              <xsl:text>Plan with t_estimate (</xsl:text>
              <a href="#glance">At a glance</a>
              <xsl:text>): </xsl:text>
              <strong>
                <xsl:value-of select="$rows[1]/@t-estimate-text"/>
                <xsl:if test="count($rows) &gt; 1">
                  <xsl:value-of select="concat(' to ', $rows[last()]/@t-estimate-text)"/>
                </xsl:if>
                <xsl:text> µs</xsl:text>
              </strong>
              <xsl:text> per launch, what a profiler shows for this launch queued among others; t_lower is a bound no run can beat, to check a measurement against. t_total, the peak roofline of sections 1 to 3, compares GPUs on their datasheets as the reference reports do</xsl:text>
              <xsl:call-template name="one-bound"/>
              <xsl:text>:</xsl:text>
            </p>
          </xsl:if>
          <xsl:if test="not(glance/@order = 't-estimate')">
            <p>
              <xsl:text>Predicted time per launch of </xsl:text>
              <code><xsl:value-of select="@name"/></code>
              <xsl:call-template name="one-bound"/>
              <xsl:text>:</xsl:text>
            </p>
          </xsl:if>
          <ul>
            <xsl:for-each select="estimates/estimate">
              <li>
                <xsl:value-of select="@gpu-name"/>
                <xsl:text>: t_total </xsl:text>
                <xsl:value-of select="@t-total-text"/>
                <xsl:text> µs</xsl:text>
                <xsl:choose>
                  <xsl:when test="$model/flops/@total = 0 and $model/bytes/@total = 0">, all of it launch latency, as no work is counted</xsl:when>
                  <xsl:otherwise>
                    <xsl:if test="not(count(../estimate[@bound = current()/@bound]) = count(../estimate) and count(../estimate) &gt; 1)">
                      <xsl:value-of select="concat(', ', @bound, ' bound')"/>
                    </xsl:if>
                  </xsl:otherwise>
                </xsl:choose>
                <xsl:if test="@fastest = 'yes' and not(../../glance/@order = 't-estimate')"> (fastest)</xsl:if>
              </li>
            </xsl:for-each>
            <!-- A GPU the launch cannot run on (issue 30): named, no estimate. -->
            <xsl:for-each select="cannot-launch">
              <li class="cannot-launch">
                <xsl:value-of select="@gpu-name"/>
                <xsl:text>: </xsl:text>
                <strong>cannot launch</strong>
                <xsl:value-of select="concat(': ', @reason, '; no estimate is made')"/>
              </li>
            </xsl:for-each>
          </ul>
          <p>These are peak-roofline estimates from the declared work and the GPUs' figures, not measurements, and neither an upper nor a lower bound on the measured time.</p>
        </section>
        <xsl:apply-templates select="changes"/>
        <xsl:call-template name="refined-estimate">
          <xsl:with-param name="model" select="$model"/>
        </xsl:call-template>
        <xsl:if test="glance/@order = 't-estimate'">
          <section id="sources">
            <h2>Appendix B. Sources of the GPU figures</h2>
            <xsl:call-template name="gpu-sources"/>
          </section>
        </xsl:if>
        <footer>
          <xsl:text>Made by roofcast from </xsl:text>
          <code><xsl:value-of select="@file"/></code>
          <xsl:text>.</xsl:text>
        </footer>
      </body>
    </html>
  </xsl:template>

  <!-- A chart as a data: image (its src added by render_html.c). Its alternative text says what it shows
       in words; the tables below hold every number. -->
  <xsl:template match="chart">
    <xsl:variable name="k" select="ancestor::kernel"/>
    <figure>
      <!-- On a narrow screen, the chart's narrow layout (legend under the plot) at its own size. -->
      <picture>
      <xsl:for-each select="../chart[@kind = concat(current()/@kind, '-narrow')]">
        <source media="(max-width: 600px)" data-roofcast-chart="{@kind}" width="{@width}" height="{@height}"/>
      </xsl:for-each>
      <img data-roofcast-chart="{@kind}" width="{@width}" height="{@height}">
        <xsl:attribute name="alt">
          <xsl:choose>
            <xsl:when test="@kind = 'roofline'">
              <xsl:value-of select="concat('Roofline chart of ', $k/@name, ': arithmetic intensity ',
                                           $k/counts[@basis = 'model']/intensity/@value-text,
                                           ' FLOP/byte against the roof of ')"/>
              <xsl:choose>
                <xsl:when test="count($gpus) = 1">the one GPU.</xsl:when>
                <xsl:otherwise><xsl:value-of select="concat('each of ', count($gpus), ' GPUs.')"/></xsl:otherwise>
              </xsl:choose>
            </xsl:when>
            <xsl:when test="$k/estimates/estimate/@t-estimate">
              <xsl:value-of select="concat('Time per launch of ', $k/@name,
                                           ' on each GPU: t_estimate as a bar, t_lower and t_total as marked points.')"/>
            </xsl:when>
            <xsl:otherwise>
              <xsl:value-of select="concat('Time per launch of ', $k/@name,
                                           ' on each GPU, split into body and launch latency.')"/>
            </xsl:otherwise>
          </xsl:choose>
        </xsl:attribute>
      </img>
      </picture>
      <figcaption>
        <xsl:choose>
          <xsl:when test="@kind = 'roofline'">
            <xsl:text>Roofline of </xsl:text>
            <code><xsl:value-of select="$k/@name"/></code>
            <xsl:text>: each GPU's roof (memory slope up to the ridge point, then the FP32 ceiling); filled symbols where the roof puts the kernel (FLOPs / t_body), hollow ones what one launch reaches with its latency (FLOPs / t_total).</xsl:text>
          </xsl:when>
          <xsl:when test="$k/estimates/estimate/@t-estimate">
            <xsl:text>Time per launch of </xsl:text>
            <code><xsl:value-of select="$k/@name"/></code>
            <xsl:text>: t_estimate, the refined estimate to plan with, as the bar on each GPU; t_lower (filled diamond) and t_total (hollow circle, the peak roofline of this section) marked on the same axis.</xsl:text>
          </xsl:when>
          <xsl:otherwise>
            <xsl:text>Time per launch of </xsl:text>
            <code><xsl:value-of select="$k/@name"/></code>
            <xsl:text>: t_total on each GPU, split into the body and the launch latency, with the bounding resource.</xsl:text>
          </xsl:otherwise>
        </xsl:choose>
      </figcaption>
    </figure>
  </xsl:template>

  <!-- Configuration: launch, parameters, notes and the source. -->
  <xsl:template name="configuration">
    <section id="configuration">
      <h2>Configuration and source</h2>
      <div class="table-wrap">
        <table>
          <thead><tr><th scope="col">Item</th><th scope="col">Value</th></tr></thead>
          <tbody>
            <tr><td>Grid</td><td><xsl:value-of select="concat(launch/@grid, ' → ')"/><xsl:call-template name="count"><xsl:with-param name="a" select="launch/@blocks"/><xsl:with-param name="one" select="'block'"/></xsl:call-template></td></tr>
            <tr><td>Block</td><td><xsl:value-of select="concat(launch/@block, ' → ')"/><xsl:call-template name="count"><xsl:with-param name="a" select="launch/@threads-per-block"/><xsl:with-param name="one" select="'thread'"/></xsl:call-template> per block</td></tr>
            <tr><td>Launched threads</td><td><xsl:value-of select="launch/@threads-text"/></td></tr>
            <xsl:for-each select="params/param">
              <tr>
                <td>Parameter <code><xsl:value-of select="@name"/></code></td>
                <td>
                  <xsl:value-of select="@value-text"/>
                  <xsl:if test="@note">
                    <xsl:value-of select="concat(' (', @note, ')')"/>
                  </xsl:if>
                </td>
              </tr>
            </xsl:for-each>
          </tbody>
        </table>
      </div>
      <xsl:if test="notes/note">
        <ul>
          <xsl:for-each select="notes/note">
            <li><xsl:value-of select="."/></li>
          </xsl:for-each>
        </ul>
      </xsl:if>
      <pre><code class="language-{translate(source/@language, ' &quot;&lt;&gt;&amp;', '')}"><xsl:value-of select="source"/></code></pre>
    </section>
  </xsl:template>

  <!-- 1. Work analysis: every count derived step by step. -->
  <xsl:template name="work-analysis">
    <xsl:param name="model"/>
    <section id="work">
      <h2>1. Work analysis</h2>
      <p>
        <xsl:text>The work model is run for every launched thread and its counts are added up exactly. </xsl:text>
        <xsl:choose>
          <xsl:when test="$model/evaluation/@reads = '' and $model/threads/@launched = 1">It reads no thread or block index, and one thread is launched.</xsl:when>
          <xsl:when test="$model/evaluation/@reads = ''">
            <xsl:value-of select="concat('It reads no thread or block index, so one run stands for all ',
                                         $model/threads/@launched-text, ' threads.')"/>
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
                <xsl:value-of select="concat('; it was run over ', $model/evaluation/@runs-text,
                                             ' ranges of those indices, within each of which every thread does the same work, so one run stands for all the threads of a range (',
                                             $model/threads/@launched-text, ' threads in all).')"/>
              </xsl:otherwise>
            </xsl:choose>
          </xsl:otherwise>
        </xsl:choose>
      </p>
      <ul class="work">
        <xsl:apply-templates select="$model/work/*"/>
      </ul>
      <div class="table-wrap">
        <table>
          <caption>Totals</caption>
          <thead>
            <tr><th scope="col">Quantity</th><th scope="col" class="num">Per active thread</th>
                <th scope="col" class="num">Per active block</th><th scope="col" class="num">Whole launch</th></tr>
          </thead>
          <tbody>
            <tr>
              <td>Active threads</td>
              <td class="num">1</td>
              <td class="num">
                <xsl:call-template name="range">
                  <xsl:with-param name="lo" select="$model/threads/@active-per-block-min-text"/>
                  <xsl:with-param name="hi" select="$model/threads/@active-per-block-max-text"/>
                </xsl:call-template>
              </td>
              <td class="num">
                <xsl:value-of select="concat($model/threads/@active-text, ' of ', $model/threads/@launched-text,
                                             ' launched (', $model/threads/@active-percent-text, ' %), ')"/>
                <xsl:call-template name="in-blocks">
                  <xsl:with-param name="blocks" select="$model/blocks"/>
                </xsl:call-template>
              </td>
            </tr>
            <xsl:call-template name="total-row">
              <xsl:with-param name="label" select="'FLOPs'"/>
              <xsl:with-param name="s" select="$model/flops"/>
              <xsl:with-param name="extra" select="''"/>
            </xsl:call-template>
            <xsl:call-template name="total-row">
              <xsl:with-param name="label" select="'Bytes moved'"/>
              <xsl:with-param name="s" select="$model/bytes"/>
              <xsl:with-param name="extra" select="concat(' (', $model/bytes/@mib-text, ' MiB)')"/>
            </xsl:call-template>
            <tr>
              <td>Arithmetic intensity (FLOP/byte)</td><td></td><td></td>
              <td class="num">
                <xsl:choose>
                  <xsl:when test="$model/flops/@total = 0 and $model/bytes/@total = 0">none: no FLOPs, no bytes</xsl:when>
                  <xsl:when test="$model/bytes/@total = 0">unbounded: no bytes move</xsl:when>
                  <xsl:otherwise>
                    <strong><xsl:value-of select="$model/intensity/@value-text"/></strong>
                    <xsl:value-of select="concat(' = ', $model/flops/@total-text, ' / ', $model/bytes/@total-text)"/>
                  </xsl:otherwise>
                </xsl:choose></td>
            </tr>
          </tbody>
        </table>
      </div>
      <xsl:if test="$model/bytes/@traffic != 0 and ($model/bytes/@loaded != 0 or $model/bytes/@stored != 0)">
        <p>
          <xsl:value-of select="concat('Of the bytes, ', $model/bytes/@loaded-text, ' are loaded, ',
                                       $model/bytes/@stored-text, ' stored and ',
                                       $model/bytes/@traffic-text, ' given as totals without the split.')"/>
        </p>
      </xsl:if>
      <xsl:call-template name="assumptions">
        <xsl:with-param name="model" select="$model"/>
      </xsl:call-template>
    </section>
  </xsl:template>

  <xsl:template name="total-row">
    <xsl:param name="label"/>
    <xsl:param name="s"/>
    <xsl:param name="extra"/>
    <tr>
      <td><xsl:value-of select="$label"/></td>
      <td class="num">
        <xsl:call-template name="range">
          <xsl:with-param name="lo" select="$s/@per-thread-min-text"/>
          <xsl:with-param name="hi" select="$s/@per-thread-max-text"/>
        </xsl:call-template>
      </td>
      <td class="num">
        <xsl:call-template name="range">
          <xsl:with-param name="lo" select="$s/@per-block-min-text"/>
          <xsl:with-param name="hi" select="$s/@per-block-max-text"/>
        </xsl:call-template>
      </td>
      <td class="num"><strong><xsl:value-of select="$s/@total-text"/></strong><xsl:value-of select="$extra"/></td>
    </tr>
  </xsl:template>

  <!-- "a", "a and b", "a, b and c" as code, from a space-separated list. -->
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
    <code><xsl:value-of select="$head"/></code>
    <xsl:if test="$rest != ''">
      <xsl:call-template name="code-list">
        <xsl:with-param name="names" select="$rest"/>
        <xsl:with-param name="first" select="false()"/>
      </xsl:call-template>
    </xsl:if>
  </xsl:template>

  <xsl:template name="note">
    <xsl:if test="@note">
      <xsl:value-of select="concat(' (', @note, ')')"/>
    </xsl:if>
  </xsl:template>

  <xsl:template name="children">
    <xsl:if test="*">
      <ul><xsl:apply-templates select="*"/></ul>
    </xsl:if>
  </xsl:template>

  <xsl:template match="let">
    <li>
      <xsl:text>Let </xsl:text>
      <code><xsl:value-of select="concat(@name, ' = ', @value)"/></code>
      <xsl:call-template name="note"/>
      <xsl:text>.</xsl:text>
    </li>
  </xsl:template>

  <xsl:template match="when">
    <li>
      <xsl:text>Guard </xsl:text>
      <code><xsl:value-of select="concat('if (', @test, ')')"/></code>
      <xsl:call-template name="note"/>
      <xsl:if test="@assumption">
        <xsl:value-of select="concat(', an assumption of the model (', ancestor::kernel/@file, ' line ', @line, '): ', @assumption)"/>
      </xsl:if>
      <xsl:text>: evaluated </xsl:text>
      <xsl:call-template name="evaluations"/>
      <xsl:text>.</xsl:text>
      <xsl:call-template name="children"/>
    </li>
  </xsl:template>

  <xsl:template match="loop">
    <li>
      <xsl:text>Loop </xsl:text>
      <code><xsl:value-of select="concat('for (', @var, ' = ', @from, '; ', @condition,
                                         '; ', @update, ')')"/></code>
      <xsl:call-template name="note"/>
      <xsl:text>: entered </xsl:text>
      <xsl:call-template name="entries"/>
      <xsl:text>; </xsl:text>
      <strong><xsl:value-of select="@iterations-text"/></strong>
      <xsl:text> iteration</xsl:text>
      <xsl:if test="@iterations != 1">s</xsl:if>
      <xsl:text> in total.</xsl:text>
      <xsl:call-template name="children"/>
    </li>
  </xsl:template>

  <!-- "80,000 executions = <strong>640,000</strong> bytes.", each noun
       agreeing with its number. -->
  <xsl:template name="executions-total">
    <xsl:param name="total"/>
    <xsl:param name="one"/>
    <xsl:call-template name="count">
      <xsl:with-param name="a" select="@executions"/>
      <xsl:with-param name="one" select="'execution'"/>
    </xsl:call-template>
    <xsl:text> = </xsl:text>
    <strong>
      <xsl:call-template name="shown">
        <xsl:with-param name="a" select="$total"/>
      </xsl:call-template>
    </strong>
    <xsl:value-of select="concat(' ', $one)"/>
    <xsl:if test="$total != 1">s</xsl:if>
    <xsl:text>.</xsl:text>
  </xsl:template>

  <xsl:template match="flops">
    <li>
      <xsl:if test="@precision != 'fp32'">
        <xsl:value-of select="concat(translate(@precision, 'fp', 'FP'), ' ')"/>
      </xsl:if>
      <xsl:text>FLOPs</xsl:text>
      <xsl:call-template name="note"/>
      <xsl:choose>
        <xsl:when test="@per-execution">
          <xsl:value-of select="concat(': ', @per-execution-text, ' per execution × ')"/>
        </xsl:when>
        <xsl:otherwise>
          <xsl:text>: </xsl:text>
          <code><xsl:value-of select="@count"/></code>
          <xsl:text> per execution, summed over </xsl:text>
        </xsl:otherwise>
      </xsl:choose>
      <xsl:call-template name="executions-total">
        <xsl:with-param name="total" select="@total-flops"/>
        <xsl:with-param name="one" select="'FLOP'"/>
      </xsl:call-template>
    </li>
  </xsl:template>

  <!-- As in the Markdown: the pipe, its warp instructions, then the lanes' count. -->
  <xsl:template match="instructions">
    <li>
      <xsl:text>Instructions on pipe </xsl:text>
      <code><xsl:value-of select="@pipe"/></code>
      <xsl:value-of select="concat(', ', @warp-instructions-text, ' warp instruction')"/>
      <xsl:if test="@warp-instructions != 1">s</xsl:if>
      <xsl:text> of 32 results</xsl:text>
      <xsl:call-template name="note"/>
      <xsl:choose>
        <xsl:when test="@per-execution">
          <xsl:value-of select="concat(': ', @per-execution-text, ' per execution × ')"/>
        </xsl:when>
        <xsl:otherwise>
          <xsl:text>: </xsl:text>
          <code><xsl:value-of select="@count"/></code>
          <xsl:text> per execution, summed over </xsl:text>
        </xsl:otherwise>
      </xsl:choose>
      <xsl:call-template name="executions-total">
        <xsl:with-param name="total" select="@total-instructions"/>
        <xsl:with-param name="one" select="'instruction'"/>
      </xsl:call-template>
    </li>
  </xsl:template>

  <xsl:template match="load | store | atomic">
    <li>
      <xsl:choose>
        <xsl:when test="self::load">Loads</xsl:when>
        <xsl:when test="self::atomic">Atomics</xsl:when>
        <xsl:otherwise>Stores</xsl:otherwise>
      </xsl:choose>
      <xsl:if test="@array">
        <xsl:text> of </xsl:text>
        <code><xsl:value-of select="concat(@array, '[', @index, ']')"/></code>
        <xsl:if test="@space != 'global'">
          <xsl:value-of select="concat(' (', @space, ' memory)')"/>
        </xsl:if>
      </xsl:if>
      <xsl:call-template name="note"/>
      <xsl:choose>
        <!-- As in the Markdown: shared memory is not memory traffic in the
             peak roofline, so only how often it runs is said. -->
        <xsl:when test="@space = 'shared' and @total-bytes = 0">
          <xsl:text>: </xsl:text>
          <xsl:call-template name="count">
            <xsl:with-param name="a" select="@executions"/>
            <xsl:with-param name="one" select="'execution'"/>
          </xsl:call-template>
          <xsl:text>, not counted as memory traffic.</xsl:text>
        </xsl:when>
        <xsl:when test="@per-execution">
          <xsl:value-of select="concat(': ', @element-count-text, ' × ')"/>
          <xsl:call-template name="count">
            <xsl:with-param name="a" select="@element-bytes"/>
            <xsl:with-param name="one" select="'byte'"/>
          </xsl:call-template>
          <xsl:text> = </xsl:text>
          <xsl:call-template name="count">
            <xsl:with-param name="a" select="@per-execution"/>
            <xsl:with-param name="one" select="'byte'"/>
          </xsl:call-template>
          <xsl:text> per execution × </xsl:text>
        </xsl:when>
        <xsl:otherwise>
          <xsl:text>: </xsl:text>
          <code><xsl:value-of select="@count"/></code>
          <xsl:text> × </xsl:text>
          <code><xsl:value-of select="@bytes"/></code>
          <xsl:text> bytes per execution, summed over </xsl:text>
        </xsl:otherwise>
      </xsl:choose>
      <xsl:if test="not(@space = 'shared' and @total-bytes = 0)">
        <xsl:call-template name="executions-total">
          <xsl:with-param name="total" select="@total-bytes"/>
          <xsl:with-param name="one" select="'byte'"/>
        </xsl:call-template>
      </xsl:if>
    </li>
  </xsl:template>

  <!-- As in the Markdown: the most barriers a thread waits at, and the waits in all. -->
  <xsl:template match="barrier">
    <li>
      <xsl:text>Barrier </xsl:text>
      <code>__syncthreads()</code>
      <xsl:call-template name="note"/>
      <xsl:choose>
        <xsl:when test="@executions = 0">
          <xsl:text>: never reached.</xsl:text>
        </xsl:when>
        <xsl:otherwise>
          <xsl:value-of select="concat(': ', @per-thread-max-text)"/>
          <xsl:if test="@per-thread-min != @per-thread-max">
            <xsl:value-of select="concat(' (fewest ', @per-thread-min-text, ')')"/>
          </xsl:if>
          <xsl:text> a thread; </xsl:text>
          <xsl:call-template name="count">
            <xsl:with-param name="a" select="@total-waits"/>
            <xsl:with-param name="one" select="'wait'"/>
          </xsl:call-template>
          <xsl:text> in all.</xsl:text>
        </xsl:otherwise>
      </xsl:choose>
    </li>
  </xsl:template>

  <xsl:template match="traffic">
    <li>
      <xsl:text>Memory traffic</xsl:text>
      <xsl:call-template name="note"/>
      <xsl:choose>
        <xsl:when test="@per-execution">
          <xsl:text>: </xsl:text>
          <xsl:call-template name="count">
            <xsl:with-param name="a" select="@per-execution"/>
            <xsl:with-param name="one" select="'byte'"/>
          </xsl:call-template>
          <xsl:text> per execution × </xsl:text>
        </xsl:when>
        <xsl:otherwise>
          <xsl:text>: </xsl:text>
          <code><xsl:value-of select="@bytes"/></code>
          <xsl:text> bytes per execution, summed over </xsl:text>
        </xsl:otherwise>
      </xsl:choose>
      <xsl:call-template name="executions-total">
        <xsl:with-param name="total" select="@total-bytes"/>
        <xsl:with-param name="one" select="'byte'"/>
      </xsl:call-template>
    </li>
  </xsl:template>

  <!-- Where the model's stated assumptions and the launch disagree. -->
  <xsl:template name="assumptions">
    <xsl:param name="model"/>
    <xsl:variable name="launch" select="counts[@basis = 'launch']"/>
    <xsl:if test="$launch">
      <h3 id="assumptions">Assumptions and the launch</h3>
      <p>The model makes assumptions that the kernel's code, launched as configured, does not:</p>
      <ul>
        <xsl:for-each select="$model/work//when[@assumption]">
          <li>
            <xsl:value-of select="concat(ancestor::kernel/@file, ' line ', @line, ': ', @assumption, ' (the model guards its work with ')"/>
            <code><xsl:value-of select="@test"/></code>
            <xsl:text>).</xsl:text>
          </li>
        </xsl:for-each>
      </ul>
      <p>Counted without those guards, as the launch runs it:</p>
      <div class="table-wrap">
        <table>
          <thead>
            <tr><th scope="col">Quantity</th><th scope="col" class="num">As modelled</th><th scope="col" class="num">As launched</th></tr>
          </thead>
          <tbody>
            <tr><td>Active threads</td><td class="num"><xsl:value-of select="$model/threads/@active-text"/></td>
                <td class="num"><xsl:value-of select="$launch/threads/@active-text"/></td></tr>
            <tr><td>FLOPs</td><td class="num"><xsl:value-of select="$model/flops/@total-text"/></td>
                <td class="num"><xsl:value-of select="$launch/flops/@total-text"/></td></tr>
            <tr><td>Bytes moved</td><td class="num"><xsl:value-of select="$model/bytes/@total-text"/></td>
                <td class="num"><xsl:value-of select="$launch/bytes/@total-text"/></td></tr>
            <xsl:for-each select="estimates/estimate">
              <xsl:variable name="gpu" select="@gpu"/>
              <tr>
                <td><xsl:value-of select="concat('t_total on ', @gpu-name, ' (µs)')"/></td>
                <td class="num"><xsl:value-of select="@t-total-text"/></td>
                <td class="num"><xsl:value-of select="../../launch-estimates/estimate[@gpu = $gpu]/@t-total-text"/></td>
              </tr>
            </xsl:for-each>
          </tbody>
        </table>
      </div>
      <p>The estimates below use the model's counts, as the reference analysis does.</p>
    </xsl:if>
  </xsl:template>

  <!-- 2. The GPUs and where their figures come from. -->
  <xsl:template name="gpu-table">
    <section id="gpus">
      <h2>2. GPU specifications used</h2>
      <xsl:call-template name="gpu-figures">
        <xsl:with-param name="gpus" select="$gpus"/>
        <xsl:with-param name="sources" select="not(glance/@order = 't-estimate')"/>
      </xsl:call-template>
      <xsl:if test="glance/@order = 't-estimate'">
        <p><a href="#sources">Appendix B</a> gives the sources of the figures.</p>
      </xsl:if>
    </section>
  </xsl:template>

  <!-- Appendix B: each GPU, its memory and the source of its figures. -->
  <xsl:template name="gpu-sources">
    <xsl:variable name="shared">
      <xsl:call-template name="shared-source">
        <xsl:with-param name="gpus" select="$gpus"/>
      </xsl:call-template>
    </xsl:variable>
    <ul>
      <xsl:if test="$shared != ''">
        <li>
          <xsl:call-template name="sharing-gpus">
            <xsl:with-param name="gpus" select="$gpus"/>
            <xsl:with-param name="shared" select="$shared"/>
          </xsl:call-template>
          <xsl:value-of select="concat(': ', $shared)"/>
        </li>
      </xsl:if>
      <xsl:for-each select="$gpus">
        <li>
          <xsl:value-of select="@name"/>
          <xsl:if test="rc:figures(., 'memory')">
            <xsl:value-of select="concat(' (', rc:figures(., 'memory')/@value-text, ')')"/>
          </xsl:if>
          <xsl:text>: </xsl:text>
          <xsl:call-template name="own-source">
            <xsl:with-param name="shared" select="$shared"/>
          </xsl:call-template>
        </li>
      </xsl:for-each>
    </ul>
  </xsl:template>

  <!-- At a glance: a row per GPU, fastest first by t_estimate, and the verdict. -->
  <xsl:template match="glance">
    <section id="glance" class="glance">
      <h2>At a glance</h2>
      <xsl:choose>
        <xsl:when test="@order = 't-estimate'">
          <p class="legend">Per launch, fastest first by <strong>t_estimate</strong>, the estimate to plan with<xsl:if test="row[@fastest = 'yes']"> (marked: within 10 % of the fastest)</xsl:if>; t_lower: no run is faster; t_total: the peak roofline of sections 1 to 5.</p>
          <div class="table-wrap">
            <table class="glance">
              <thead>
                <tr>
                  <th scope="col">GPU</th><th scope="col" class="num">t_estimate (µs)</th>
                  <th scope="col">Limited by</th><th scope="col" class="num">t_lower (µs)</th>
                  <th scope="col" class="num">t_total (µs)</th>
                </tr>
              </thead>
              <tbody>
                <xsl:for-each select="row">
                  <tr>
                    <xsl:if test="@fastest = 'yes'">
                      <xsl:attribute name="class">fastest</xsl:attribute>
                    </xsl:if>
                    <td>
                      <xsl:value-of select="@gpu-name"/>
                      <xsl:if test="@fastest = 'yes'"><span class="tag">fastest</span></xsl:if>
                    </td>
                    <td class="num"><strong><xsl:value-of select="@t-estimate-text"/></strong></td>
                    <td><xsl:value-of select="@limiter-words"/></td>
                    <td class="num"><xsl:value-of select="@t-lower-text"/></td>
                    <td class="num"><xsl:value-of select="@t-total-text"/></td>
                  </tr>
                </xsl:for-each>
              </tbody>
            </table>
          </div>
        </xsl:when>
        <xsl:otherwise>
          <p class="legend">Time per launch, fastest first by t_total, the peak roofline of sections 1 to 5.</p>
          <div class="table-wrap">
            <table class="glance">
              <thead>
                <tr><th scope="col">GPU</th><th scope="col" class="num">t_total (µs)</th></tr>
              </thead>
              <tbody>
                <xsl:for-each select="row">
                  <tr>
                    <td><xsl:value-of select="@gpu-name"/></td>
                    <td class="num"><xsl:value-of select="@t-total-text"/></td>
                  </tr>
                </xsl:for-each>
              </tbody>
            </table>
          </div>
        </xsl:otherwise>
      </xsl:choose>
      <xsl:for-each select="verdict/p">
        <p class="verdict"><xsl:value-of select="."/></p>
      </xsl:for-each>
    </section>
  </xsl:template>

  <!-- 3. Formulas and the time table. -->
  <!-- The refined estimate: the execution model's table, formulas and each GPU's terms. -->
  <xsl:template name="refined-estimate">
    <xsl:param name="model"/>
    <xsl:if test="estimates/estimate/refined">
      <section id="refined">
        <h2>Appendix A. How the refined estimate was computed</h2>
        <p>Sections 1 to 3 are the peak roofline of the reference reports: every byte at the datasheet bandwidth and every FLOP at the FP32 peak of the whole GPU. The refined estimate asks what this launch can use of each GPU: how many blocks an SM holds (occupancy, by the CUDA occupancy rules), how many SMs the grid keeps busy and in how many waves, how many bytes its warps keep in flight (Little's law: rate = bytes in flight / latency, bending towards and never above the measured sustained rate), and the longest thread's own work. It adds the cost of a launch queued back to back, as a profiler measures it. t_lower is a true lower bound: each array's sectors, or its lanes' bytes if fewer, through the L1 data path at 128 B a clock per SM or the L1 rate if higher; FLOPs, and the longest thread at one FMA a cycle, at 1.35 times the peak and clock.</p>
        <ul class="formulas">
          <li><code>blocks per SM = min(threads, blocks, registers, shared-memory limits)</code>, registers allocated per warp in units of the register unit, shared memory per block (plus the reserve) in units of the shared unit</li>
          <li><code>waves = ceil(blocks / (SMs × blocks per SM))</code>; <code>wave factor = waves × concurrent blocks / blocks</code> (the tail wave costs a full one, except at DRAM and L2)</li>
          <li><code>t_compute = FLOPs / (peak × active SMs / SMs × min(1, warps per SM / 4)) × wave factor, per precision (FP16, FP32, FP64 peaks; 4 schedulers an SM, each issuing one warp instruction a cycle)</code><xsl:if test="estimates/estimate/refined/term[starts-with(@name, 'compute-')][@slot-flops or @dependent-slot-flops]">; a FLOP of a <code>fused="false"</code> statement counts 2 (an instruction of its own), and a dependent loop's FLOPs reach <code>min(1, warps per SM / 4 / arithmetic latency)</code> of the peak, at most 32 lanes a scheduler (no dual issue)</xsl:if></li>
          <li><code>t_level = bytes / (little^-2 + sustained^-2)^-1/2 × the waves' cost</code>, <xsl:variable name="flight" select="(estimates/estimate/refined/flight)[1]"/><code>little = bytes in flight / (<xsl:value-of select="format-number($flight/@round-factor, '0.##')"/> latency + (a thread's start and end − <xsl:value-of select="format-number($flight/@round-factor - 1, '0.##')"/> latency) / rounds<xsl:if test="estimates/estimate/refined/flight/@barriers"> + barrier steps / rounds at DRAM and L2</xsl:if>)</code> (a thread's start and end: <xsl:value-of select="round($flight/@start-end * 1e9)"/> ns, the life a one-element stream's thread adds to its latency in microbenchmarks; with only stores in flight, no latency)<xsl:if test="estimates/estimate/refined/flight/@barriers"> (a barrier step: one thread's shared load, add and store and the barrier, as a microbenchmark times it for the block's warps; the block keeps no global access in flight meanwhile)</xsl:if>, for DRAM, L2 and L1<xsl:if test="estimates/estimate/refined/term[@in-flight-share]"> (bytes in flight are counted in the level's bytes, where a request costs the level more than it asks for: at DRAM the whole 32-byte sectors it fetches, at L2 those and what lines stores write in part cost beyond them, at L1 128 bytes a clock it holds the pipeline, with the shared-memory accesses from Volta on)</xsl:if><xsl:if test="estimates/estimate/refined/term[@latency-of = 'none']"> (no latency where only stores are in flight: no thread waits for its store, which ends at the L2, and DRAM drains the lines at its sustained rate)</xsl:if>; the cost is the wave factor at L1, and at DRAM and L2, which serve every SM, <code>(the full waves' blocks + the last wave's × rate / the rate their bytes in flight reach) / blocks</code>: a last wave that still reaches the sustained rate costs only its share; L1 bytes are 128 bytes per clock a global request holds L1, over the clocks a coalesced one takes (from Volta on the most of the load/store units' 1 or 2 clocks, its bank passes (two clocks each on Turing) and (its lines + 2) / 4, after gpu-benches' gpu-strides; before Volta, per array, the more of one and its sectors / 4), plus, from Volta on, 128 bytes per shared-memory wavefront; DRAM bytes are 0 when the footprint fits its share of the L2 (93 % on Ada, else 3/4; measured on Ada, A100, H100), where the previous launch left it, and otherwise at most the footprint<xsl:if test="counts[@basis = 'model']/memory/@rewritten-bytes &gt; 0">, with the bytes both read and written again,</xsl:if> once per wave (assumed: blocks resident at once find in L2 what they reuse); bytes in flight = blocks resident at once × threads per block × the share of threads that work × bytes a thread keeps in flight</li>
          <xsl:if test="estimates/estimate/refined/term[@name = 'shared']">
            <li><code>t_shared = max(shared-memory wavefronts / wavefronts an SM serves a clock, warp requests × clocks a request holds the load/store units) / (active SMs × SM clock) × wave factor</code>, bank conflicts counted by the GPU generation's rule; a request holds the units 2 clocks on Turing, GA10x and Ada (16 an SM), 1 elsewhere; an SM serves one wavefront a clock, one every two clocks on Turing</li>
          </xsl:if>
          <xsl:if test="estimates/estimate/refined/term[@name = 'atomics']">
            <li><code>t_atomics = atomic (request, line) pairs of the hottest array / its lines / (operations a line serves a clock × SM clock)</code>: a line serves its atomics one at a time (the one-address rate assumed)<xsl:if test="estimates/estimate/refined/term[@name = 'atomics'][@lane-updates &gt; 0]">; where lanes add values of their own (<code>operand="per-lane"</code>), each further update of a request's busiest address takes its turn at the generation's lane-by-lane rate for the array's element type (measured or assumed: the term's inputs say which)</xsl:if><xsl:if test="estimates/estimate/refined/term[@name = 'atomics'][@multiword-pairs &gt; 0]">; a pair of several addresses holds its line longer (a few-lines microbenchmark's rate)</xsl:if></li>
          </xsl:if>
          <li><code>t_thread = longest thread's FLOPs / 2 (one FMA an instruction) × cycles an instruction / SM clock</code><xsl:if test="estimates/estimate/refined/term[starts-with(@name, 'compute-')][@slot-flops]">; a FLOP of a <code>fused="false"</code> statement counts 2 (an instruction of its own)</xsl:if></li>
          <xsl:if test="estimates/estimate/refined/term[@name = 'chain']">
            <li><code>t_chain = longest thread's dependent iterations × cycles an iteration / SM clock</code>: one L1 hit (the GPU's l1 latency) for an iteration that loads, else its FLOPs / 2 FMA instructions (at least one) at the generation's dependent-FMA latency (Arafa et al.'s measurements, assumed on generations they did not measure); t_lower counts one L1 hit or one instruction an iteration where the figure is not assumed</li>
          </xsl:if>
          <xsl:if test="estimates/estimate/refined/term[starts-with(@name, 'pipe-')]">
            <li><code>t_pipe = 32 × warp instructions / (results per clock per SM × active SMs × SM clock) × wave factor</code>, for each pipe of the instructions statements (CUDA C++ Programming Guide, throughput of native arithmetic instructions; a warp takes the pipe for all its lanes); t_lower counts it at 1.35 times that rate where the rate is published<xsl:if test="estimates/estimate/refined/term[@fp64-time]">; 64-bit conversions add the FP64 FLOPs' term (one unit: assumed)</xsl:if><xsl:if test="estimates/estimate/refined/term[@xu-time]">; special functions and conversions add up (one unit, the XU)</xsl:if></li>
          </xsl:if>
          <!-- Only GPUs whose generation has a measured block rate have a blocks term. -->
          <xsl:if test="estimates/estimate/refined/term[@name = 'blocks']">
            <li><code>t_blocks = the grid's blocks / (blocks the GPU starts a clock × SM clock)</code>: the GPU starts blocks at a rate across all its SMs, measured on GP100 and GV100 only (a microbenchmark's blocks of 64 threads, one element each); not in t_lower</li>
          </xsl:if>
          <li><code>t_estimate = max(all of the above) + launch cost back to back</code></li>
        </ul>
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th>GPU</th><th>Occupancy (%)</th><th>Blocks per SM (limit)</th><th>Waves</th>
                <th>t_body_est (µs)</th><th>Launch (µs)</th><th>t_estimate (µs)</th>
                <th>t_lower (µs)</th><th>t_total (µs)</th><th>Limiter</th>
              </tr>
            </thead>
            <tbody>
              <xsl:for-each select="estimates/estimate">
                <xsl:variable name="r" select="refined"/>
                <tr>
                  <td><xsl:value-of select="@gpu-name"/></td>
                  <td class="num"><xsl:value-of select="$r/occupancy/@percent-text"/></td>
                  <td><xsl:value-of select="concat($r/occupancy/@blocks-per-sm-text, ' (', $r/occupancy/@limit, ')')"/></td>
                  <td class="num"><xsl:value-of select="@waves-text"/></td>
                  <td class="num"><xsl:value-of select="$r/@t-body-est-text"/></td>
                  <td class="num"><xsl:value-of select="$r/@t-launch-text"/></td>
                  <td class="num"><xsl:value-of select="@t-estimate-text"/></td>
                  <td class="num"><xsl:value-of select="@t-lower-text"/></td>
                  <td class="num"><xsl:value-of select="@t-total-text"/></td>
                  <td><xsl:value-of select="@limiter"/></td>
                </tr>
              </xsl:for-each>
            </tbody>
          </table>
        </div>
        <p>Each GPU's terms, with the numbers that go into them (figures marked "assumed" are architecture defaults standing in for a missing measurement); open a GPU to see them:</p>
          <xsl:for-each select="estimates/estimate">
            <xsl:variable name="id" select="@gpu"/>
            <details>
              <summary>
                <strong><xsl:value-of select="@gpu-name"/></strong>
                <xsl:value-of select="concat(': ', @t-estimate-text, ' µs')"/>
              </summary>
              <p><xsl:value-of select="refined/explanation"/></p>
              <ul>
                <li>
                  <xsl:call-template name="waves-and-flight">
                    <xsl:with-param name="refined" select="refined"/>
                  </xsl:call-template>
                </li>
                <xsl:for-each select="refined/term">
                  <li><xsl:value-of select="concat(@name, ': ', @time-text, ' µs (', @inputs)"/><xsl:if test="@barrier-inputs"><xsl:value-of select="concat('; ', @barrier-inputs)"/></xsl:if><xsl:text>)</xsl:text></li>
                </xsl:for-each>
                <xsl:for-each select="rc:figures($gpus[@id = $id]/execution, 'dram-bandwidth dram-latency launch-back-to-back')">
                  <li>
                    <xsl:value-of select="concat(@label, ': ', @value-text, ', ')"/>
                    <xsl:choose>
                      <xsl:when test="starts-with(@source, 'assumed: ')">
                        <strong>assumed</strong>
                        <xsl:value-of select="concat(': ', substring-after(@source, 'assumed: '))"/>
                      </xsl:when>
                      <xsl:otherwise>
                        <xsl:value-of select="concat(@origin, ': ', @source)"/>
                      </xsl:otherwise>
                    </xsl:choose>
                  </li>
                </xsl:for-each>
              </ul>
            </details>
          </xsl:for-each>
        <xsl:call-template name="memory-traffic">
          <xsl:with-param name="model" select="$model"/>
        </xsl:call-template>
      </section>
    </xsl:if>
  </xsl:template>

  <xsl:template name="time-estimates">
    <xsl:param name="model"/>
    <section id="time">
      <h2>3. Time estimates</h2>
      <p>
        <xsl:value-of select="concat('For each GPU, with FLOPs = ', $model/flops/@total-text,
                                     ' and bytes = ', $model/bytes/@total-text, ':')"/>
      </p>
      <ul class="formulas">
        <li><code>t_compute = FLOPs / peak_FP32</code></li>
        <li><code>t_mem = bytes / bandwidth</code></li>
        <li><code>t_body = max(t_compute, t_mem)</code></li>
        <li><code>t_total = t_body + t_launch</code></li>
      </ul>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">GPU</th>
              <th scope="col" class="num">t_compute (µs)</th><th scope="col" class="num">t_mem (µs)</th>
              <th scope="col" class="num">t_body (µs)</th><th scope="col" class="num">t_launch (µs)</th>
              <th scope="col" class="num">t_total (µs)</th><th scope="col">Bound</th>
              <th scope="col" class="num">Launch share (%)</th>
              <th scope="col" class="num">FLOPs / t_body</th><th scope="col" class="num">FLOPs / t_total</th>
            </tr>
          </thead>
          <tbody>
            <xsl:for-each select="estimates/estimate">
              <tr>
                <xsl:if test="@fastest = 'yes' and count(../estimate) &gt; 1">
                  <xsl:attribute name="class">fastest</xsl:attribute>
                </xsl:if>
                <td>
                  <xsl:value-of select="@gpu-name"/>
                  <xsl:if test="@fastest = 'yes' and count(../estimate) &gt; 1">
                    <span class="tag">
                      <xsl:text>fastest</xsl:text>
                      <xsl:if test="../../glance/@order = 't-estimate'"> by t_estimate</xsl:if>
                    </span>
                  </xsl:if>
                </td>
                <td class="num"><xsl:value-of select="@t-compute-text"/></td>
                <td class="num"><xsl:value-of select="@t-mem-text"/></td>
                <td class="num"><xsl:value-of select="@t-body-text"/></td>
                <td class="num"><xsl:value-of select="@t-launch-text"/></td>
                <td class="num"><strong><xsl:value-of select="@t-total-text"/></strong></td>
                <td>
                  <xsl:value-of select="@bound"/>
                  <xsl:if test="@launch-dominated = 'yes'"><span class="tag">launch-dominated</span></xsl:if>
                </td>
                <td class="num"><xsl:value-of select="@launch-percent-text"/></td>
                <td class="num"><xsl:value-of select="@perf-roof-text"/></td>
                <td class="num"><xsl:value-of select="@perf-attained-text"/></td>
              </tr>
            </xsl:for-each>
          </tbody>
        </table>
      </div>
      <xsl:apply-templates select="charts/chart[@kind = 'time']"/>
    </section>
  </xsl:template>

  <!-- The memory model (issue 16): counts per array, bytes per level. -->
  <xsl:template name="memory-traffic">
    <xsl:param name="model"/>
    <xsl:variable name="m" select="$model/memory"/>
    <xsl:if test="$m">
      <section id="memory">
        <h3>Memory traffic by level</h3>
        <p>Accesses are counted per warp (32 consecutive threads of a block, x fastest). A request is one access by the active lanes of a warp at the same iteration of every loop around it; a sector is 32 bytes. Sectors moved sums each request's distinct sectors; the footprint counts the distinct sectors of the whole launch.</p>
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Array</th><th scope="col">Space</th>
                <th scope="col" class="num">Requests</th><th scope="col" class="num">Accessed (B)</th>
                <th scope="col" class="num">Sectors moved (B)</th><th scope="col" class="num">Sectors per request</th>
                <th scope="col" class="num">Efficiency (%)</th><th scope="col" class="num">Footprint (B)</th>
                <th scope="col" class="num">Shared wavefronts</th>
              </tr>
            </thead>
            <tbody>
              <xsl:for-each select="$m/array">
                <tr>
                  <td><code><xsl:value-of select="concat(@type, ' ', @name, '[', @length-text, ']')"/></code></td>
                  <td><xsl:value-of select="@space"/></td>
                  <xsl:call-template name="memory-cells"/>
                </tr>
              </xsl:for-each>
              <xsl:for-each select="$m/legacy">
                <tr><td>accesses without an address</td><td>global</td><xsl:call-template name="memory-cells"/></tr>
              </xsl:for-each>
              <tr><td><strong>Total</strong></td><td></td>
                <xsl:for-each select="$m"><xsl:call-template name="memory-cells"/></xsl:for-each>
              </tr>
            </tbody>
          </table>
        </div>
        <xsl:if test="$m/legacy">
          <p>Accesses written as a count of bytes (<code>load count bytes</code>, <code>store</code>, <code>traffic</code>) carry no address: they are counted as perfectly coalesced (128 bytes per request) and read once, with no reuse, so their sectors and footprint equal their bytes.</p>
        </xsl:if>
        <xsl:if test="$m/@enumerated">
          <p><xsl:value-of select="concat('Arrays counted by running every distinct warp, not by classes of blocks (see docs/counting.md): ', $m/@enumerated, '.')"/></p>
        </xsl:if>
        <xsl:if test="$m/@sampled = 'yes'">
          <p><xsl:value-of select="concat('These counts are estimated from a sample: ', $m/@sample-blocks-text,
                                       ' of the ', $m/@sample-classes-text,
                                       ' blocks whose accesses differ, one drawn at random (seed ', $m/@sample-seed,
                                       ') from each of as many equal strides, scaled to the whole launch; counting them all would pass the analysis budget.')"/></p>
        </xsl:if>
        <p>Each level's bytes, and the time they take at that level's bandwidth (DRAM at the bandwidth of section 2):</p>
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">GPU</th><th scope="col" class="num">L1 and shared</th><th scope="col" class="num">L2</th>
                <th scope="col" class="num">DRAM</th><th scope="col" class="num">t_L1 (µs)</th>
                <th scope="col" class="num">t_L2 (µs)</th><th scope="col" class="num">t_DRAM (µs)</th>
                <th scope="col" class="num">L1 keeps (%)</th><th scope="col" class="num">Footprint in L2 (%)</th>
              </tr>
            </thead>
            <tbody>
              <xsl:for-each select="estimates/estimate">
                <tr>
                  <td><xsl:value-of select="@gpu-name"/></td>
                  <td class="num"><xsl:value-of select="@l1-bytes-text"/></td>
                  <td class="num"><xsl:value-of select="@l2-bytes-text"/></td>
                  <td class="num"><xsl:value-of select="@dram-bytes-text"/></td>
                  <td class="num"><xsl:value-of select="@t-l1-text"/></td>
                  <td class="num"><xsl:value-of select="@t-l2-text"/></td>
                  <td class="num"><xsl:value-of select="@t-dram-text"/></td>
                  <td class="num"><xsl:value-of select="@l1-hit-percent-text"/></td>
                  <td class="num"><xsl:value-of select="@l2-fit-percent-text"/></td>
                </tr>
              </xsl:for-each>
            </tbody>
          </table>
        </div>
        <p><xsl:text>The rule: L1 and shared memory see every sector moved, plus 128 bytes per shared-memory wavefront. </xsl:text><xsl:if test="estimates/estimate/l1-run"><xsl:text>L1 keeps the share of what a block touches again that a run of one SM's L1 still holds: the blocks the SM holds at once issue their warps' requests in turn, one request a warp, through the GPU's L1 in 128-byte lines of four sectors, the least recently used line evicted (NVIDIA publishes neither the L1's associativity nor its replacement policy: assumed); results.xml gives each run's touches and hits. </xsl:text><xsl:if test="estimates/estimate[not(l1-run)]"><xsl:text>Where no such run applies, </xsl:text></xsl:if></xsl:if><xsl:if test="estimates/estimate[not(l1-run)]"><xsl:value-of select="concat('L1 keeps what a block reuses while the most one block touches (', $m/@block-footprint-max-text, &quot; bytes) fits its share of an SM's L1 (the L1 divided among the blocks resident on the SM); beyond that, the share it keeps falls in proportion. &quot;)"/></xsl:if><xsl:value-of select="&quot;What it does not keep goes to L2: L2 bytes = every sector stores write, each block's other distinct sectors, and the rest of the sectors moved times the share L1 misses. DRAM moves the footprint once when it fits the L2, and a growing part of the L2 traffic, in proportion, as it outgrows the L2. This rule is roofcast's assumption, after the hierarchical roofline (Yang, Kurth and Williams, 2020) and published L1 microbenchmarks; the L1 and L2 bandwidths are the GPU file's, marked there where assumed.&quot;"/><xsl:if test="$m/@rewritten-bytes &gt; 0"><xsl:value-of select="concat(' Of the footprint, ', $m/@rewritten-bytes-text, ' bytes are both read and written: DRAM moves them twice, read in and written back.')"/></xsl:if><xsl:if test="estimates/estimate/refined/level-bytes[@fetched &gt; 1.005 * @footprint]"><xsl:text> DRAM fetches a sector the L2 misses with the other half of its 64-byte half-line (measured on Turing, assumed on the other generations); this kernel reads sectors that lie alone in theirs, so DRAM fetches more than the footprint, at most twice it.</xsl:text></xsl:if><xsl:if test="estimates/estimate[@l1-read-only = 'yes']"><xsl:text> Where L1 caches global loads only on the read-only path, it keeps only arrays read that way; the rest reach L2.</xsl:text></xsl:if></p>
      </section>
    </xsl:if>
  </xsl:template>

  <xsl:template name="memory-cells">
    <td class="num"><xsl:value-of select="@requests-text"/></td>
    <td class="num"><xsl:value-of select="@accessed-bytes-text"/></td>
    <td class="num"><xsl:value-of select="@sector-bytes-text"/></td>
    <td class="num"><xsl:value-of select="@sectors-per-request-text"/></td>
    <td class="num"><xsl:value-of select="@efficiency-percent-text"/></td>
    <td class="num"><xsl:value-of select="@footprint-bytes-text"/></td>
    <td class="num"><xsl:value-of select="@shared-wavefronts-text"/></td>
  </xsl:template>

  <!-- What changed since the baseline (present only when something did). -->
  <xsl:template match="kernel/changes">
    <section id="changes">
      <h2>Changes since the baseline</h2>
      <p>Compared with <code><xsl:value-of select="@baseline"/></code>.</p>
      <xsl:if test="input">
        <p>Inputs that changed:</p>
        <ul>
          <xsl:for-each select="input">
            <li>
              <xsl:value-of select="concat(@kind, ' ')"/>
              <xsl:if test="@gpu"><xsl:value-of select="concat(@gpu, ' ')"/></xsl:if>
              <xsl:value-of select="concat(@name, ': ', @old, ' → ', @new)"/>
            </li>
          </xsl:for-each>
        </ul>
      </xsl:if>
      <xsl:if test="estimate">
        <div class="table-wrap">
          <table>
            <thead>
              <tr><th scope="col">GPU</th><th scope="col">Estimate</th><th scope="col" class="num">Old (µs)</th>
                  <th scope="col" class="num">New (µs)</th><th scope="col" class="num">Change</th></tr>
            </thead>
            <tbody>
              <xsl:for-each select="estimate">
                <tr>
                  <td><xsl:value-of select="@gpu-name"/></td>
                  <td><xsl:value-of select="@quantity"/></td>
                  <td class="num"><xsl:value-of select="@old-text"/></td>
                  <td class="num"><xsl:value-of select="@new-text"/></td>
                  <td class="num"><xsl:value-of select="@percent-text"/></td>
                </tr>
              </xsl:for-each>
            </tbody>
          </table>
        </div>
      </xsl:if>
    </section>
  </xsl:template>
</xsl:stylesheet>
