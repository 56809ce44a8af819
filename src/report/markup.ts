/**
 * A small HTML/SVG writer: elements are built from escaped text only. `Markup` is a value only this
 * file makes, so text an agent wrote cannot reach the page unescaped by accident — a plain string
 * is refused where markup is expected, by the type checker and at run time alike.
 */
import { stripAnsi } from '../core/protocol/protocol.js';

export class Markup {
  constructor(readonly html: string) {}

  toString(): string {
    return this.html;
  }
}

export type Attrs = Readonly<Record<string, string | number | boolean | null | undefined>>;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text made safe to stand in an element or a quoted attribute: terminal escapes and control
 * characters out (newlines and tabs kept), then the five HTML specials as entities.
 */
export function escapeText(value: string): string {
  return stripAnsi(value.replace(/\r\n?/g, '\n')).replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

export function text(value: string): Markup {
  return new Markup(escapeText(value));
}

/** Markup this program wrote itself (CSS, the hover script): never text from the plan's files. */
export function trusted(source: string): Markup {
  return new Markup(source);
}

const NAME = /^[a-zA-Z][a-zA-Z0-9:-]*$/;

/** `<tag a="v">children</tag>`; attributes null/undefined/false are left out, true is a bare attribute. */
export function el(tag: string, attrs: Attrs = {}, ...children: ReadonlyArray<Markup | readonly Markup[]>): Markup {
  if (!NAME.test(tag)) throw new Error(`not an element name: ${tag}`);
  let open = `<${tag}`;
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (!NAME.test(key)) throw new Error(`not an attribute name: ${key}`);
    open += value === true ? ` ${key}` : ` ${key}="${escapeText(typeof value === 'number' ? fmt(value) : value)}"`;
  }
  let inner = '';
  for (const child of children.flat()) {
    if (!(child instanceof Markup)) throw new Error('markup expected: pass text through text()');
    inner += child.html;
  }
  return new Markup(`${open}>${inner}</${tag}>`);
}

export function join(parts: ReadonlyArray<Markup>): Markup {
  return new Markup(parts.map((p) => p.html).join(''));
}

/** Coordinates to at most one decimal: small files, no float noise. */
export function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Math.round(n * 10) / 10);
}
