/**
 * Reading a YAML document with positions: sections (mappings whose keys are checked), typed
 * fields, and problems that carry the 1-based line and column of the offending node. Pure.
 */
import { isAlias, isMap, isScalar, isSeq, type Document, type LineCounter, type Scalar, type YAMLMap, type YAMLSeq } from 'yaml';
import { excerpt } from '../../errors.js';
import type { CommandSpec, ConfigProblem, ConfigResult, SwarmConfig } from './types.js';
import { NAME_CHARS, nameProblem, type NameRule } from './names.js';
import { didYouMean } from './suggest.js';

export type YamlNode = Scalar | YAMLMap | YAMLSeq;

/** One `key: value` of a section; `path` names it in messages (`lanes[0].task`). */
export interface Field {
  key: YamlNode;
  value: YamlNode | null;
  path: string;
}

/** A mapping whose keys have been checked against the known ones. */
export interface Section {
  node: YamlNode;
  path: string;
  fields: Map<string, Field>;
}

const COMMAND_RULE = 'a command: a string (run by sh -c), a non-empty list of strings (argv), or null';

/** Collects problems while typed values are read out of one parsed document. */
export class Reader {
  readonly problems: ConfigProblem[] = [];

  constructor(private readonly doc: Document, private readonly lines: LineCounter) {}

  /** The node itself, aliases followed; null when there is none. */
  resolve(node: unknown): YamlNode | null {
    const target = isAlias(node) ? node.resolve(this.doc) : node;
    return isScalar(target) || isMap(target) || isSeq(target) ? target : null;
  }

  /** 1-based line and column where a node starts (1:1 without one). */
  pos(node: YamlNode | null | undefined): { line: number; col: number } {
    const offset = node?.range?.[0];
    return offset === undefined ? { line: 1, col: 1 } : this.lines.linePos(offset);
  }

  add(node: YamlNode | null | undefined, message: string): void {
    this.problems.push({ ...this.pos(node), message });
  }

  /** Every problem in file order, or the config when there is none. */
  result(config: () => SwarmConfig | undefined): ConfigResult {
    const value = this.problems.length === 0 ? config() : undefined;
    if (value !== undefined) return { ok: true, config: value };
    const problems = [...this.problems].sort((a, b) => a.line - b.line || a.col - b.col);
    return { ok: false, problems };
  }

  /**
   * Read a mapping, reporting keys not in `known` (null: any key). `where` places a type problem.
   * `told`: for a key that is deliberately not allowed here, why, said instead of the known keys.
   */
  section(node: YamlNode | null, where: YamlNode, path: string, known: readonly string[] | null, told: Readonly<Record<string, string>> = {}): Section | undefined {
    if (!isMap(node)) {
      const what = path === '' ? 'the file' : `"${path}"`;
      this.add(node !== null && !isEmpty(node) ? node : where, `${what} must be a mapping of keys, got ${describe(node)}`);
      return undefined;
    }
    const fields = new Map<string, Field>();
    for (const pair of node.items) {
      const key = this.resolve(pair.key);
      const name = isScalar(key) ? String(key.value) : describe(key);
      if (key === null) continue;
      if (known !== null && !known.includes(name)) {
        const hint = Object.hasOwn(told, name) ? `: ${told[name]}` : didYouMean(name, known);
        const where = path === '' ? '' : ` in ${path}`;
        this.add(key, `unknown key "${excerpt(name, 40)}"${where}${hint !== '' ? hint : `; known keys: ${known.join(', ')}`}`);
        continue;
      }
      fields.set(name, { key, value: this.resolve(pair.value), path: path === '' ? name : `${path}.${name}` });
    }
    return { node, path, fields };
  }

  /** The field, or undefined; when absent and `missing` is given, a problem saying what to add. */
  field(s: Section, key: string, missing?: string): Field | undefined {
    const field = s.fields.get(key);
    if (field === undefined && missing !== undefined) {
      this.add(s.node, `missing "${key}"${s.path === '' ? '' : ` in ${s.path}`}: ${missing}`);
    }
    return field;
  }

  /** Where a problem about a field's value points: the value, or its key when the value is empty. */
  where(field: Field): YamlNode {
    return field.value !== null && !isEmpty(field.value) ? field.value : field.key;
  }

  wrong(field: Field, expected: string): undefined {
    this.add(this.where(field), `"${field.path}" must be ${expected}, got ${describe(field.value)}`);
    return undefined;
  }

  /** A scalar's value, or the plain data of a list or mapping (for messages). */
  scalar(node: YamlNode | null): unknown {
    if (node === null) return null;
    return isScalar(node) ? node.value : node.toJSON();
  }

  /** A non-empty string. */
  text(s: Section, key: string, missing?: string): string | undefined {
    const field = this.field(s, key, missing);
    if (field === undefined) return undefined;
    const value = this.scalar(field.value);
    return typeof value === 'string' && value.trim() !== '' ? value : this.wrong(field, 'a non-empty string');
  }

  /** A non-empty string, or null when absent or null; undefined when wrong (a problem is added). */
  optText(s: Section, key: string): string | null | undefined {
    const field = s.fields.get(key);
    if (field === undefined || this.scalar(field.value) === null) return null;
    return this.text(s, key);
  }

  /** A safe identifier (core/config/names.ts): it becomes a file name and a tmux name or option value. */
  name(s: Section, key: string, missing?: string, rule: NameRule = 'agent'): string | undefined {
    const value = this.text(s, key, missing);
    const field = s.fields.get(key);
    if (value === undefined || field === undefined) return undefined;
    return this.named(field, value, rule) ? value : undefined;
  }

  /** A list of safe names; absent or null is the empty list. */
  names(s: Section, key: string): string[] {
    const field = s.fields.get(key);
    const items = this.list(s, key) ?? [];
    const out: string[] = [];
    items.forEach((item, i) => {
      const value = this.scalar(item);
      const at = { key: field?.key ?? item, value: item, path: `${field?.path ?? key}[${i}]` };
      if (typeof value === 'string' ? this.named(at, value, 'agent') : this.wrong(at, NAME_CHARS.agent)) out.push(value as string);
    });
    return out;
  }

  /** True when `value` keeps the rule, else a problem at the field. */
  private named(field: Field, value: string, rule: NameRule): boolean {
    const problem = nameProblem(value, rule);
    if (problem === null) return true;
    if (problem.kind === 'chars') this.wrong(field, problem.expected);
    else this.add(this.where(field), `"${field.path}" ${problem.message}`);
    return false;
  }

  /** A list's items; absent or null is undefined (a problem when `missing` is given). */
  list(s: Section, key: string, missing?: string): YamlNode[] | undefined {
    const field = this.field(s, key, missing);
    if (field === undefined) return undefined;
    if (isSeq(field.value)) return field.value.items.map((item) => this.resolve(item) ?? field.key);
    if (this.scalar(field.value) === null && missing === undefined) return undefined;
    return this.wrong(field, 'a list');
  }

  oneOf<T extends string>(s: Section, key: string, options: readonly T[]): T | undefined {
    const field = s.fields.get(key);
    if (field === undefined) return undefined;
    const value = this.scalar(field.value);
    const found = options.find((option) => option === value);
    return found ?? this.wrong(field, `one of ${options.join(', ')}`);
  }

  /** A whole number of at least `min`. */
  whole(s: Section, key: string, min: number, expected?: string): number | undefined {
    const field = s.fields.get(key);
    if (field === undefined) return undefined;
    const value = this.scalar(field.value);
    if (typeof value !== 'number' || !Number.isInteger(value)) return this.wrong(field, expected ?? 'a whole number');
    return value >= min ? value : this.wrong(field, expected ?? `a whole number of at least ${min}`);
  }

  /** A number from 0 to 100. */
  percent(s: Section, key: string): number | undefined {
    const field = s.fields.get(key);
    if (field === undefined) return undefined;
    const value = this.scalar(field.value);
    return typeof value === 'number' && value >= 0 && value <= 100 ? value : this.wrong(field, 'a percentage from 0 to 100');
  }

  /** A string (sh -c), a non-empty list of non-empty strings (argv), or null (absent too). */
  command(s: Section, key: string): CommandSpec {
    const field = s.fields.get(key);
    if (field === undefined) return null;
    const value = this.scalar(field.value);
    if (value === null) return null;
    if (typeof value === 'string' && value.trim() !== '') return value;
    if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string' && v !== '')) return value as string[];
    this.wrong(field, COMMAND_RULE);
    return null;
  }
}

function isEmpty(node: YamlNode): boolean {
  return isScalar(node) && node.value === null && node.source === '';
}

/** What was received, short: `"eight"`, `8`, `null`, `nothing`, `a list`, `a mapping`. */
export function describe(node: YamlNode | null): string {
  if (node === null || isEmpty(node)) return 'nothing';
  if (isSeq(node)) return 'a list';
  if (isMap(node)) return 'a mapping';
  const value = node.value;
  return typeof value === 'string' ? JSON.stringify(excerpt(value, 40)) : String(value);
}
