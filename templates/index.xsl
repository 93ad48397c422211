<?xml version="1.0" encoding="UTF-8"?>
<!-- index.xsl: every kernel on every GPU at a glance, one self-contained
     HTML page (index.html) from the results tree (see src/results.h): a
     table with a row per kernel and a column per GPU, each kernel linking
     to its report (<id>.html, beside this page), the overview chart (added
     by src/render/render_html.c as /roofcast-results/charts/chart; the
     <img data-roofcast-chart="overview"> gets its data: URI there)
     and the inputs that were rejected. Numbers are the tree's *-text
     attributes; input text is only written with xsl:value-of. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:output method="html" encoding="UTF-8" indent="no"
              doctype-system="about:legacy-compat"/>
  <xsl:include href="html-style.xsl"/>
  <xsl:include href="html-gpus.xsl"/>

  <xsl:variable name="gpus" select="/roofcast-results/gpus/gpu"/>
  <xsl:variable name="kernels" select="/roofcast-results/kernels/kernel"/>

  <xsl:template match="/">
    <html lang="en">
      <head>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <title>Execution time estimates: every kernel on every GPU</title>
        <xsl:call-template name="style"/>
      </head>
      <body>
        <h1>Execution time estimates: every kernel on every GPU</h1>
        <p>
          <xsl:value-of select="count($kernels)"/>
          <xsl:text> kernel</xsl:text>
          <xsl:if test="count($kernels) != 1">s</xsl:if>
          <xsl:text> on </xsl:text>
          <xsl:value-of select="count($gpus)"/>
          <xsl:text> GPU</xsl:text>
          <xsl:if test="count($gpus) != 1">s</xsl:if>
          <xsl:text>. Each cell is t_estimate, the refined estimate of one launch to plan with, in µs, and what limits it</xsl:text>
          <xsl:if test="count($gpus) &gt; 1">; the fastest GPUs of each kernel (within 10 % of its fastest: a smaller difference is no ranking) are marked</xsl:if>
          <xsl:text>. The GPUs are in the order of their FP32 peak, lowest first. The second table gives t_total, the peak roofline of the reference reports. Follow a kernel's name to its full report.</xsl:text>
        </p>

        <section id="times">
          <h2>Predicted time per launch</h2>
          <xsl:choose>
            <xsl:when test="$kernels">
              <!-- The caption sits outside the scroll box, so that it wraps to the
                   window rather than to the table's width (which scrolls on a phone). -->
              <p class="caption" id="times-caption">t_estimate per launch (µs) and what limits it; marked: the fastest by t_estimate</p>
              <xsl:call-template name="time-table">
                <xsl:with-param name="refined" select="true()"/>
                <xsl:with-param name="caption" select="'times-caption'"/>
              </xsl:call-template>
              <p class="caption" id="totals-caption">Peak roofline: t_total per launch (µs), the body (bounded by compute or by memory) plus the launch latency of the reference reports</p>
              <xsl:call-template name="time-table">
                <xsl:with-param name="refined" select="false()"/>
                <xsl:with-param name="caption" select="'totals-caption'"/>
              </xsl:call-template>
            </xsl:when>
            <xsl:otherwise>
              <p>No kernel was estimated.</p>
            </xsl:otherwise>
          </xsl:choose>
          <xsl:for-each select="/roofcast-results/charts/chart[@kind = 'overview']">
            <figure>
              <img data-roofcast-chart="{@kind}" width="{@width}" height="{@height}"
                   alt="Chart of t_estimate per launch of every kernel on every GPU, on a logarithmic time axis."/>
              <figcaption>t_estimate per launch of every kernel (a band each) on every GPU (a row each in the band), on a logarithmic axis<xsl:if test="count($gpus) &gt; 1">; the fastest GPUs of each kernel (within 10 %) are ringed</xsl:if>.</figcaption>
            </figure>
          </xsl:for-each>
        </section>

        <section id="gpus">
          <h2>GPUs</h2>
          <xsl:call-template name="gpu-figures">
            <xsl:with-param name="gpus" select="$gpus"/>
            <xsl:with-param name="sources" select="false()"/>
          </xsl:call-template>
        </section>

        <xsl:apply-templates select="/roofcast-results/changes"/>

        <xsl:if test="/roofcast-results/rejected/input">
          <section id="rejected">
            <h2>Rejected inputs</h2>
            <p>These inputs were not used; each is named with the reason it was rejected.</p>
            <div class="table-wrap">
              <table>
                <thead>
                  <tr><th scope="col">File</th><th scope="col" class="num">Line</th><th scope="col">Reason</th></tr>
                </thead>
                <tbody>
                  <xsl:for-each select="/roofcast-results/rejected/input">
                    <tr>
                      <td><code><xsl:value-of select="@file"/></code></td>
                      <td class="num"><xsl:value-of select="@line"/></td>
                      <td><xsl:value-of select="@message"/></td>
                    </tr>
                  </xsl:for-each>
                </tbody>
              </table>
            </div>
          </section>
        </xsl:if>
        <footer>Made by roofcast. These are peak-roofline estimates from declared work and the GPUs' figures (assumed ones marked), not measurements.</footer>
      </body>
    </html>
  </xsl:template>

  <!-- The "changes since" panel: what moved since the baseline run, each
       changed kernel linking to its report's own section. -->
  <xsl:template match="roofcast-results/changes">
    <section id="changes">
      <h2>Changes since the baseline</h2>
      <p>
        <xsl:text>Compared with </xsl:text>
        <code><xsl:value-of select="@baseline"/></code>
        <xsl:text>: </xsl:text>
        <xsl:choose>
          <xsl:when test="@any = 'no'">no changes.</xsl:when>
          <xsl:when test="@estimates-changed = 0">no estimate value changed.</xsl:when>
          <xsl:when test="@estimates-changed = 1">
            <xsl:value-of select="concat('1 estimate value changed, by ', @max-percent-text, ' %.')"/>
          </xsl:when>
          <xsl:otherwise>
            <xsl:value-of select="concat(@estimates-changed, ' estimate values changed; the largest move is ',
                                         @max-percent-text, ' %.')"/>
          </xsl:otherwise>
        </xsl:choose>
      </p>
      <xsl:if test="kernel-added | kernel-removed | gpu-added | gpu-removed">
        <ul>
          <xsl:for-each select="kernel-added">
            <li>Kernel added: <a href="{@id}.html"><xsl:value-of select="@name"/></a></li>
          </xsl:for-each>
          <xsl:for-each select="kernel-removed">
            <li>Kernel removed: <xsl:value-of select="@name"/> (<code><xsl:value-of select="@id"/></code>)</li>
          </xsl:for-each>
          <xsl:for-each select="gpu-added">
            <li>GPU added: <xsl:value-of select="@name"/></li>
          </xsl:for-each>
          <xsl:for-each select="gpu-removed">
            <li>GPU removed: <xsl:value-of select="@name"/></li>
          </xsl:for-each>
        </ul>
      </xsl:if>
      <xsl:if test="kernel">
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Kernel</th>
                <th scope="col">Inputs that changed</th>
                <th scope="col">t_total moves (µs)</th>
              </tr>
            </thead>
            <tbody>
              <xsl:for-each select="kernel">
                <tr>
                  <td><a href="{@id}.html#changes"><xsl:value-of select="@name"/></a></td>
                  <td>
                    <xsl:for-each select="input">
                      <xsl:if test="position() &gt; 1">; </xsl:if>
                      <xsl:value-of select="concat(@kind, ' ')"/>
                      <xsl:if test="@gpu"><xsl:value-of select="concat(@gpu, ' ')"/></xsl:if>
                      <xsl:value-of select="concat(@name, ': ', @old, ' → ', @new)"/>
                    </xsl:for-each>
                  </td>
                  <td>
                    <xsl:for-each select="estimate[@quantity = 't_total']">
                      <xsl:if test="position() &gt; 1">; </xsl:if>
                      <xsl:value-of select="concat(@gpu-name, ' ', @old-text, ' → ', @new-text, ' (', @percent-text, ')')"/>
                    </xsl:for-each>
                  </td>
                </tr>
              </xsl:for-each>
            </tbody>
          </table>
        </div>
      </xsl:if>
    </section>
  </xsl:template>

  <!-- A row per kernel, a column per GPU: t_estimate and its limiter as a tag, the fastest by
       t_estimate marked (refined); or t_total and its bound (not refined). A kernel without a
       refined estimate shows t_total in both. -->
  <xsl:template name="time-table">
    <xsl:param name="refined"/>
    <xsl:param name="caption"/>
    <div class="table-wrap">
      <table class="overview" aria-labelledby="{$caption}">
        <thead>
          <tr>
            <th scope="col">Kernel</th>
            <xsl:for-each select="$gpus">
              <th scope="col" class="num"><xsl:value-of select="@name"/></th>
            </xsl:for-each>
          </tr>
        </thead>
        <tbody>
          <xsl:for-each select="$kernels">
            <xsl:variable name="k" select="."/>
            <tr>
              <th scope="row">
                <a href="{@id}.html"><xsl:value-of select="@name"/></a>
                <br/>
                <span class="muted">
                  <xsl:value-of select="concat(counts[@basis = 'model']/intensity/@value-text, ' FLOP/byte')"/>
                </span>
              </th>
              <xsl:for-each select="$gpus">
                <xsl:variable name="id" select="@id"/>
                <xsl:variable name="e" select="$k/estimates/estimate[@gpu = $id]"/>
                <td class="num">
                  <xsl:choose>
                    <!-- A GPU the launch cannot run on (issue 30): no estimate. -->
                    <xsl:when test="$k/cannot-launch[@gpu = $id]">
                      <strong>cannot launch</strong>
                      <br/>
                      <span class="muted"><xsl:value-of select="$k/cannot-launch[@gpu = $id]/@reason"/></span>
                    </xsl:when>
                    <xsl:when test="$refined and $e/@t-estimate-text">
                      <xsl:if test="$e/@fastest = 'yes'">
                        <xsl:attribute name="class">num fastest</xsl:attribute>
                      </xsl:if>
                      <strong><xsl:value-of select="$e/@t-estimate-text"/></strong>
                      <span class="tag" title="{$e/@limiter-words}"><xsl:value-of select="$e/@limiter"/></span>
                    </xsl:when>
                    <xsl:when test="$refined">
                      <xsl:if test="$e/@fastest = 'yes'">
                        <xsl:attribute name="class">num fastest</xsl:attribute>
                      </xsl:if>
                      <strong><xsl:value-of select="$e/@t-total-text"/></strong>
                      <span class="tag">t_total</span>
                    </xsl:when>
                    <xsl:otherwise>
                      <xsl:value-of select="$e/@t-total-text"/>
                      <span class="tag">
                        <xsl:value-of select="$e/@bound"/>
                        <xsl:if test="$e/@launch-dominated = 'yes'">, launch</xsl:if>
                      </span>
                    </xsl:otherwise>
                  </xsl:choose>
                </td>
              </xsl:for-each>
            </tr>
          </xsl:for-each>
        </tbody>
      </table>
    </div>
  </xsl:template>

</xsl:stylesheet>
