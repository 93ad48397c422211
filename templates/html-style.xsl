<?xml version="1.0" encoding="UTF-8"?>
<!-- html-style.xsl: the inline style of the HTML pages, included by html.xsl
     and index.xsl. Prose keeps to a column of 62rem; a table wider than that
     may use the window's width, and one wider than the window scrolls
     sideways in its .table-wrap (so on a narrow screen too). Readable in
     print (@media print). -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:template name="style">
    <style>
:root { --ink: #1f2328; --soft: #57606a; --line: #d0d7de; --alt: #f6f8fa; --link: #0550ae; --mark: #fff1b8; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { --pad: 1.25rem; margin: 0 auto; max-width: 62rem; padding: 1rem var(--pad) 3rem; color: var(--ink); background: #fff;
       font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
h1 { font-size: 1.75rem; line-height: 1.25; margin: .5rem 0 1rem; overflow-wrap: anywhere; }
h2 { font-size: 1.3rem; margin: 2.4rem 0 .8rem; padding-bottom: .25rem; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.1rem; margin: 1.8rem 0 .6rem; }
p, li { overflow-wrap: anywhere; }
a { color: var(--link); }
code, pre { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: .9em; }
code { background: var(--alt); padding: .05em .3em; border-radius: 4px; }
pre { background: var(--alt); border: 1px solid var(--line); border-radius: 6px; padding: .8rem 1rem;
      overflow-x: auto; line-height: 1.45; tab-size: 4; }
pre code { background: none; padding: 0; font-size: .88rem; }
/* A table's box is as wide as the table, at least the column's width and at
   most the window's less the page's padding, centred on the column: a table
   that fits the column stays in it, a wider one spreads over the window,
   and one wider than the window scrolls in its box. */
.table-wrap { overflow-x: auto; margin: 1rem 0 1rem 50%; transform: translateX(-50%);
              width: max-content; min-width: 100%; max-width: calc(100vw - 2 * var(--pad)); }
table { border-collapse: collapse; font-size: .92rem; }
caption { text-align: left; color: var(--soft); padding-bottom: .4rem; }
<!-- A wide table's caption, set before its scroll box rather than in it (index.xsl). -->p.caption { color: var(--soft); margin: 1rem 0 .4rem; }
p.caption + .table-wrap { margin-top: 0; }
th, td { border: 1px solid var(--line); padding: .35rem .6rem; text-align: left; vertical-align: top; }
th { background: var(--alt); font-weight: 600; }
th.num, td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.num { white-space: nowrap; }
tbody td:first-child, tbody th:first-child { min-width: 9.5em; }
tr.fastest td, td.fastest { background: var(--mark); }
table.overview { font-size: .85rem; }
table.overview th, table.overview td { padding: .3rem .4rem; }
table.overview td { white-space: normal; min-width: 6.2em; }
table.overview tbody th { position: sticky; left: 0; background: #fff; }
.tag { display: inline-block; font-size: .8em; padding: 0 .4em; border: 1px solid var(--soft); border-radius: 3px; margin-left: .3em; white-space: nowrap; }
figure { margin: 1.5rem 0; }
figure img { display: block; max-width: 100%; height: auto; border: 1px solid var(--line); }
figcaption { color: var(--soft); font-size: .9rem; margin-top: .4rem; }
.formulas { list-style: none; padding-left: 0; }
/* At a glance: on the first screen at 1280 x 900, so compact. */
section.glance h2 { margin-top: 1rem; }
section.glance p { margin: .4rem 0; }
table.glance { font-size: .88rem; line-height: 1.35; }
table.glance th, table.glance td { padding: .15rem .5rem; }
.legend, .verdict { font-size: .92rem; line-height: 1.45; }
details { margin: .3rem 0; }
details > summary { cursor: pointer; }
.muted { color: var(--soft); }
nav.toc ul { margin: .3rem 0; padding-left: 1.2rem; list-style: none; }
nav.toc ul ul { padding-left: 1.2rem; }
nav.toc { border: 1px solid var(--line); border-radius: 6px; padding: .5rem 1rem; background: var(--alt); }
footer { margin-top: 3rem; color: var(--soft); font-size: .85rem; border-top: 1px solid var(--line); padding-top: .6rem; }
@media (max-width: 40rem) {
  body { --pad: .75rem; padding: .75rem var(--pad) 2rem; font-size: 15px; }
  h1 { font-size: 1.4rem; }
  th, td { padding: .3rem .4rem; }
  /* At a glance on a phone: the GPU and t_estimate columns first in view, the rest scrolls. */
  table.glance { font-size: .8rem; }
  table.glance tbody td:first-child { min-width: 0; }
  table.glance th, table.glance td { padding: .15rem .3rem; }
}
@media print {
  body { max-width: none; padding: 0; font-size: 10pt; }
  a { color: inherit; text-decoration: none; }
  nav.toc, .screen-only { display: none; }
  .table-wrap { overflow: visible; margin: 1rem 0; transform: none; width: auto; max-width: none; }
  table { font-size: 8.5pt; }
  pre { white-space: pre-wrap; overflow-wrap: anywhere; overflow: visible; }
  h2, h3 { break-after: avoid; }
  figure, tr, pre { break-inside: avoid; }
  figure img { border: none; }
  tr.fastest td, td.fastest { background: none; font-weight: 700; }
  @page { margin: 15mm; }
}
    </style>
  </xsl:template>

</xsl:stylesheet>
