// The timeline page's own style and script (rows that open and close, the keyboard, the filters,
// "jump to the first problem"): static text, kept apart from timeline-html.ts, which renders the rows.

export const TIMELINE_CSS = `
.stats{display:flex;flex-wrap:wrap;gap:6px 18px;color:var(--muted);margin:0 0 8px}.stats b{color:var(--vscode-foreground);font-weight:600}
.toolbar{display:flex;flex-wrap:wrap;gap:8px;margin:8px 0}
.refused{padding:8px 14px;border-left:3px solid var(--error);background:var(--card);border-radius:2px;margin:10px 0}.refused p{margin:4px 0}
ol.timeline{list-style:none;margin:0;padding:0;border-top:1px solid var(--border)}
.row{display:grid;grid-template-columns:14px 28px minmax(150px,1fr) 76px minmax(170px,1.3fr) 210px 140px;align-items:center;gap:8px;padding:5px 8px;border-bottom:1px solid var(--border);border-left:3px solid transparent;cursor:pointer}
.row:hover{background:var(--vscode-list-hoverBackground,rgba(128,128,128,.1))}
.row:focus{outline:1px solid var(--vscode-focusBorder,#007fd4);outline-offset:-1px;background:var(--vscode-list-focusBackground,rgba(0,127,212,.15))}
.row[aria-expanded=true] .chev{transform:rotate(90deg)}.chev{transition:transform .1s;color:var(--muted)}
.tone-border-ok{border-left-color:transparent}.tone-border-warn{border-left-color:var(--warn)}.tone-border-error{border-left-color:var(--error)}.tone-border-info{border-left-color:var(--info)}.tone-border-muted{border-left-color:var(--border)}
.seq{color:var(--muted);text-align:right;font-variant-numeric:tabular-nums}
.point{font-weight:600}.hook code{background:none}
.no-hook{opacity:.55}.unwired .point{font-style:italic}
.unwired-label{display:inline-block;font-size:.78em;padding:0 6px;border:1px dashed var(--warn);color:var(--warn);border-radius:3px;margin-left:4px}
.dur{display:flex;align-items:center;white-space:nowrap}
.toolname{font-weight:400;color:var(--muted);font-size:.9em}
.chg{display:inline-block;font-size:.78em;padding:0 6px;border-radius:3px;background:var(--vscode-diffEditor-insertedTextBackground,rgba(63,185,80,.2));color:var(--vscode-foreground)}
a.hooklink{text-decoration:none}a.hooklink:hover code{text-decoration:underline}
.filters{display:flex;flex-wrap:wrap;gap:6px 14px;align-items:center;margin:4px 0 8px;color:var(--muted)}
.filters select{font:inherit;color:var(--vscode-dropdown-foreground,inherit);background:var(--vscode-dropdown-background,transparent);border:1px solid var(--vscode-dropdown-border,var(--border))}
li.event.filtered,li.group.filtered{display:none}
li.group{padding:10px 8px 4px;color:var(--muted);font-size:.8em;text-transform:uppercase;letter-spacing:.06em;border-bottom:1px solid var(--border)}
.details{padding:6px 12px 10px 52px;border-bottom:1px solid var(--border);background:var(--card)}
.details p{margin:4px 0}.dt{display:inline-block;min-width:64px;color:var(--muted);font-size:.85em;text-transform:uppercase;letter-spacing:.04em}
.cols{display:grid;grid-template-columns:1fr 1fr;gap:12px}
ol.traceback{margin:4px 0;padding-left:20px}.frame-text{margin:2px 0 4px;max-height:none}
.transcript{display:flex;flex-direction:column;gap:8px;max-width:760px;margin-top:8px}
.msg{position:relative;padding:8px 12px;border-radius:12px;max-width:78%;white-space:pre-wrap;word-break:break-word}
.msg .who{display:block;font-size:.75em;text-transform:uppercase;letter-spacing:.05em;color:var(--muted);margin-bottom:2px}
.msg.user{align-self:flex-end;background:var(--vscode-button-background,#0e639c);color:var(--vscode-button-foreground,#fff);border-bottom-right-radius:3px}
.msg.user .who{color:inherit;opacity:.8}
.msg.bot{align-self:flex-start;background:var(--vscode-editorWidget-background,#252526);border:1px solid var(--border);border-bottom-left-radius:3px}
.msg.is-fallback{border:1px dashed var(--warn)}.fallback{display:inline-block;font-size:.8em;color:var(--warn);margin-bottom:2px}
.msg.tool{align-self:center;max-width:92%;background:none;border:1px solid var(--border);border-radius:4px;padding:4px 10px;font-size:.9em;color:var(--muted)}
.msg.engine{align-self:center;max-width:92%;background:none;border:1px dashed var(--info);border-radius:4px;padding:4px 10px;font-style:italic;color:var(--info)}
.empty{color:var(--muted);font-style:italic}
details.turn{margin:8px 0;border:1px solid var(--border);border-radius:4px}details.turn>summary{cursor:pointer;padding:6px 8px;background:var(--card)}
.turn-name{font-weight:600}.turn-sep{align-self:center;color:var(--muted);font-size:.8em;text-transform:uppercase;letter-spacing:.06em;margin:6px 0 0}
@media (max-width:900px){
.row{grid-template-columns:14px 24px minmax(0,1fr) auto auto;grid-template-areas:"chev seq point lanec out" ". . hook dur dur";row-gap:2px}
.row>.chev{grid-area:chev}.row>.seq{grid-area:seq}.row>.point{grid-area:point;overflow:hidden;text-overflow:ellipsis}.row>.lanec{grid-area:lanec}.row>.out{grid-area:out}.row>.hook{grid-area:hook;font-size:.92em;min-width:0;overflow-wrap:anywhere}.row>.dur{grid-area:dur;justify-self:end}
.row .bar{width:48px}.details{padding-left:16px}.cols{grid-template-columns:1fr}}
`;

export const TIMELINE_SCRIPT = `
const rows = Array.from(document.querySelectorAll('.row'));
function toggle(row, open) {
  const details = document.getElementById(row.getAttribute('aria-controls'));
  const next = open === undefined ? row.getAttribute('aria-expanded') !== 'true' : open;
  row.setAttribute('aria-expanded', String(next));
  if (details) details.hidden = !next;
}
function focusRow(i) {
  if (i < 0 || i >= rows.length) return;
  rows.forEach((r, j) => r.setAttribute('tabindex', j === i ? '0' : '-1'));
  rows[i].focus();
}
rows.forEach((row, i) => {
  row.addEventListener('click', (e) => {
    if (e.target instanceof Element && e.target.closest('a')) return;
    focusRow(i); toggle(row);
  });
  row.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowDown') { e.preventDefault(); focusRow(i + 1); }
    else if (e.key === 'ArrowUp') { e.preventDefault(); focusRow(i - 1); }
    else if (e.key === 'Home') { e.preventDefault(); focusRow(0); }
    else if (e.key === 'End') { e.preventDefault(); focusRow(rows.length - 1); }
    else if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); toggle(row); }
    else if (e.key === 'ArrowRight') { e.preventDefault(); toggle(row, true); }
    else if (e.key === 'ArrowLeft') { e.preventDefault(); toggle(row, false); }
  });
});
const expandAll = document.getElementById('expand-all');
const collapseAll = document.getElementById('collapse-all');
if (expandAll) expandAll.addEventListener('click', () => rows.forEach((r) => toggle(r, true)));
if (collapseAll) collapseAll.addEventListener('click', () => rows.forEach((r) => toggle(r, false)));
document.addEventListener('click', (e) => {
  const a = e.target instanceof Element ? e.target.closest('a.hooklink') : null;
  if (!a) return;
  e.preventDefault();
  if (vscodeApi) vscodeApi.postMessage({ type: 'openHook', hook: a.dataset.hook });
});
const events = Array.from(document.querySelectorAll('li.event'));
const fProblems = document.getElementById('f-problems');
const fChanged = document.getElementById('f-changed');
const fHook = document.getElementById('f-hook');
function applyFilter() {
  const hook = fHook ? fHook.value : '';
  events.forEach((li) => {
    const d = li.dataset;
    const hide = (fProblems && fProblems.checked && (!d.outcome || d.outcome === 'returned'))
      || (fChanged && fChanged.checked && d.changed !== '1')
      || (hook && d.hook !== hook);
    li.classList.toggle('filtered', !!hide);
  });
  // A group header stays only while one of its rows does.
  document.querySelectorAll('li.group').forEach((g) => {
    let n = g.nextElementSibling, any = false;
    while (n && !n.classList.contains('group')) { if (!n.classList.contains('filtered')) any = true; n = n.nextElementSibling; }
    g.classList.toggle('filtered', !any);
  });
}
[fProblems, fChanged, fHook].forEach((c) => c && c.addEventListener('change', applyFilter));
const jump = document.getElementById('jump-problem');
if (jump) jump.addEventListener('click', () => {
  const i = events.findIndex((li) => li.dataset.outcome && li.dataset.outcome !== 'returned');
  if (i < 0) return;
  focusRow(i); toggle(rows[i], true);
  rows[i].scrollIntoView({ block: 'center' });
});
`;
