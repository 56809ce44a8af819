/**
 * The page's opening (SPEC 10.2): what needs the developer — escalations nobody answered, with the
 * agent's own last lines, and each lane not done with why — then each lane's result: its branch,
 * commits and files since the run began, the PR it reported, its gate's output, and a link to each
 * generation's pane log (a file written beside the page). Pure; agents' text is escaped as text.
 */
import type { ReportFacts } from '../core/report/facts.js';
import type { Clock } from './clock.js';
import { el, type Markup, text } from './markup.js';
import { pre, table } from './tables.js';

export function needsYou(facts: ReportFacts, clock: Clock): Markup {
  const { escalations, lanes } = facts.needs_you;
  if (escalations.length === 0 && lanes.length === 0) {
    return el('section', { id: 'needs-you', class: 'needs-you none' }, el('h2', {}, text('Needs you')), el('p', {}, text('Nothing: every lane is done and every escalation answered.')));
  }
  return el('section', { id: 'needs-you', class: 'needs-you' },
    el('h2', {}, text(`Needs you (${escalations.length + lanes.length})`)),
    el('ul', {},
      ...escalations.map((e) => el('li', { class: 'escalation' },
        el('b', {}, text(`${clock.time(e.at)} ${e.lane ?? '?'}${e.generation === null ? '' : ` g${e.generation}`} ${e.class ?? ''}: `)), pre(e.what),
        ...(e.last_lines.length > 0 ? [el('details', {}, el('summary', {}, text('its last lines')), pre(e.last_lines.join('\n')))] : []),
        el('p', { class: 'hint' }, text(`answer: swarm answer ${e.lane ?? '<lane>'} "<text>"`)))),
      ...lanes.map((l) => el('li', { class: 'lane' }, el('b', {}, text(`${l.name} (${l.state}): `)), text(l.why)))));
}

export function results(facts: ReportFacts, logHref: (path: string) => string | null): Markup {
  const rows = facts.results.map((r) => [
    r.lane,
    r.branch ?? '',
    r.commits === null ? '' : String(r.commits),
    r.files_changed === null ? '' : r.files_changed.length === 0 ? 'none' : pre(r.files_changed.join('\n')),
    r.pr ? el('code', {}, text(r.pr)) : '',
    r.gate === null ? '' : el('div', {}, el('code', {}, text(r.gate.command)), text(` ${r.gate.passed === null ? 'running' : r.gate.passed ? 'passed' : 'failed'}`), pre(r.gate.output)),
    el('span', {}, ...r.logs.map((log) => {
      const href = logHref(log.path);
      return href === null ? text(`g${log.generation} `) : el('a', { class: 'log', href }, text(`g${log.generation}`));
    })),
  ]);
  return table('results', 'Results', ['lane', 'branch', 'commits', 'files changed', 'PR', 'gate', 'pane logs'], rows, 'No lanes.');
}
