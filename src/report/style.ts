/** The page's inline CSS, vendor colours and its one (hover-only) script. Constants, written here. */

export const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#b07aa1', '#76b7b2', '#edc948', '#ff9da7', '#9c755f'] as const;

export const CSS = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; background: #fff; }
h1 { font-size: 1.4em; margin: 0 0 .3em; } h2 { font-size: 1.1em; margin: 1.5em 0 .4em; }
.summary .item { display: inline-block; margin-right: 1.2em; }
.needs-you { border-left: 4px solid #c62828; padding-left: .8em; } .needs-you.none { border-color: #2e7d32; }
.needs-you li { margin: .3em 0; } .needs-you .hint { margin: .2em 0; color: #555; font-size: .9em; }
.outcome-done [data-key=outcome] { color: #2e7d32; } .outcome-stopped_short [data-key=outcome] { color: #c62828; }
.legend { font-size: 12px; color: #555; } .legend .key { margin-right: 1em; }
.scroll { overflow-x: auto; }
svg.timeline { font: 11px system-ui, sans-serif; display: block; }
.band-a { fill: #f6f8fb; } .band-b { fill: #eef2f7; } .epoch-label { fill: #667; font-size: 10px; }
.tick { stroke: #dde; } .tick-label, .zone { fill: #667; font-size: 10px; }
.row-rule { stroke: #e4e4e4; }
.lane-name { font-weight: 600; fill: #222; } .lane-state, .chart-label { fill: #777; font-size: 10px; }
.gen rect { stroke: #fff; stroke-width: 1; } .gen.end-stopped rect { stroke: #c62828; stroke-width: 2; }
.gen-label { fill: #fff; font-size: 10px; pointer-events: none; }
.handoff-span { stroke: #333; stroke-width: 1.5; fill: none; } .handoff-label { font-size: 9px; fill: #444; }
.handoff.degraded .handoff-span { stroke: #e65100; stroke-dasharray: 3 2; } .handoff.degraded .handoff-label { fill: #e65100; }
.handoff.open .handoff-span, .handoff.attention .handoff-span, .handoff.stopped .handoff-span { stroke: #c62828; }
.rejected { stroke: #c62828; stroke-width: 2; } .waiting { stroke: #b58900; stroke-width: .5; }
.escalation { fill: #c62828; } .answer { fill: #2e7d32; stroke: #fff; }
.chart-frame { fill: #fafafa; stroke: #eee; }
.thr-low { stroke: #f9a825; stroke-dasharray: 4 3; } .thr-critical { stroke: #c62828; stroke-dasharray: 4 3; }
.thr-context { stroke: #90caf9; stroke-dasharray: 1 3; }
svg.spend { font: 11px system-ui, sans-serif; display: block; margin-bottom: .6em; }
.spend-line { stroke: #6a1b9a; stroke-width: 1.5; fill: none; } .pt { fill: #6a1b9a; stroke: #fff; stroke-width: .5; }
.spend-base line { stroke: #999; } .spend-max line { stroke: #ccc; stroke-dasharray: 4 3; } .spend-total { font-weight: 600; fill: #222; }
.spend-sums { display: flex; flex-wrap: wrap; gap: 1.2em; align-items: flex-start; margin-bottom: .8em; }
table.sums caption { text-align: left; font-weight: 600; padding-bottom: .2em; }
.cap { stroke: #2e7d32; stroke-width: 1.5; fill: none; } .ctx { stroke: #1565c0; stroke-width: 1; stroke-dasharray: 3 2; fill: none; }
table { border-collapse: collapse; font-size: 12px; } th, td { border: 1px solid #ddd; padding: 3px 6px; text-align: left; vertical-align: top; }
th { background: #f3f3f3; } pre { margin: 0; white-space: pre-wrap; word-break: break-word; max-width: 40em; font: 11px ui-monospace, monospace; }
blockquote.answer-text { margin: 0 0 .3em; padding-left: .5em; border-left: 3px solid #2e7d32; }
.empty { color: #777; }
#tip { position: absolute; max-width: 32em; background: #222; color: #fff; padding: 4px 8px; border-radius: 4px; font-size: 12px; white-space: pre-wrap; pointer-events: none; }
`;

/**
 * Hover only: each SVG <title> (the no-JavaScript tooltip) becomes a data-tip shown in #tip, always as
 * textContent — never parsed as markup.
 */
export const HOVER_SCRIPT = `(function () {
  var tip = document.getElementById('tip');
  document.querySelectorAll('svg.timeline title, svg.spend title').forEach(function (t) {
    var p = t.parentNode; p.setAttribute('data-tip', t.textContent); p.removeChild(t);
  });
  document.addEventListener('mouseover', function (e) {
    var t = e.target.closest ? e.target.closest('[data-tip]') : null;
    if (!t) { tip.hidden = true; return; }
    tip.textContent = t.getAttribute('data-tip'); tip.hidden = false;
  });
  document.addEventListener('mousemove', function (e) { tip.style.left = (e.pageX + 12) + 'px'; tip.style.top = (e.pageY + 12) + 'px'; });
})();`;
