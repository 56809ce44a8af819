#!/usr/bin/env node
/**
 * Dead exports: every symbol a file in src/ exports that no other file imports (issue 11 §3).
 * `tsc --noUnusedLocals` cannot see these: an export is "used" by being exported. This builds the
 * tsc program of tsconfig.json (src, tests, bench) and marks each export some other file imports,
 * by name (`import { x }`, `export { x } from`, `const { x } = await import()`,
 * `(await import()).x`) or whole (`import * as`, `export *`, an import() used any other way).
 * Plain .mjs files (scripts/, bench/) are read for the names they take from dist/ with import().
 *
 * `node scripts/unused-exports.mjs [--local]` lists each dead export (`file: name`, used nowhere, not
 * even in its own file) and exits 1 when there is one; `--local` also lists those only their own file
 * uses (an exported options type, say: fine, but worth a look). An export that only tests import is
 * used: tests are the pure core's first callers. `npm run lint` runs it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/** Exports kept with no importer, each with why. Keep it short. */
export const KEPT = new Map([
  ['src/drill/mock/types.ts: MockHandler', "issue 14's mock model server: its design commit names the shapes before the handlers that use them"],
]);

function program(root) {
  const configPath = join(root, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  return ts.createProgram({ rootNames: parsed.fileNames, options: { ...parsed.options, noEmit: true } });
}

function mjsFiles(dir) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'fixtures') return [];
    if (statSync(path).isDirectory()) return mjsFiles(path);
    return /\.(mjs|cjs|js)$/.test(name) ? [path] : [];
  });
}

/** Symbols named in `file` other than where they are declared. */
function localUses(checker, file) {
  const uses = new Set();
  const visit = (node) => {
    if (ts.isIdentifier(node) && !(node.parent && 'name' in node.parent && node.parent.name === node && ts.isDeclaration(node.parent))) {
      const symbol = checker.getSymbolAtLocation(node);
      if (symbol) uses.add(symbol);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return uses;
}

/**
 * Each export of src/ nothing else imports, as `file: name`: `dead` when its own file does not use
 * it either (delete it), `local` when only its own file does (it need not be exported).
 */
export function unusedExports(root) {
  const prog = program(root);
  const checker = prog.getTypeChecker();
  const used = new Set();
  const wholeModules = new Set();
  const byName = new Set();
  const original = (symbol) => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);
  const moduleOf = (specifier) => checker.getSymbolAtLocation(specifier);

  const markAll = (moduleSymbol) => {
    if (moduleSymbol) wholeModules.add(moduleSymbol);
  };
  const markName = (moduleSymbol, name) => {
    if (!moduleSymbol) return;
    const exported = checker.getExportsOfModule(moduleSymbol).find((s) => s.escapedName === name);
    if (exported) used.add(original(exported));
  };

  for (const file of prog.getSourceFiles()) {
    if (file.isDeclarationFile || file.fileName.includes('/node_modules/')) continue;
    const visit = (node) => {
      if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
        const moduleSymbol = moduleOf(node.moduleSpecifier);
        if (ts.isImportDeclaration(node)) {
          const clause = node.importClause;
          if (clause?.name) markName(moduleSymbol, 'default');
          const bindings = clause?.namedBindings;
          if (bindings && ts.isNamespaceImport(bindings)) markAll(moduleSymbol);
          if (bindings && ts.isNamedImports(bindings)) for (const el of bindings.elements) markName(moduleSymbol, (el.propertyName ?? el.name).text);
        } else if (!node.exportClause || ts.isNamespaceExport(node.exportClause)) {
          markAll(moduleSymbol);
        } else {
          for (const el of node.exportClause.elements) markName(moduleSymbol, (el.propertyName ?? el.name).text);
        }
      }
      if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0]) {
        const moduleSymbol = moduleOf(node.arguments[0]);
        let at = node.parent;
        while (at && (ts.isAwaitExpression(at) || ts.isParenthesizedExpression(at))) at = at.parent;
        if (at && ts.isPropertyAccessExpression(at)) markName(moduleSymbol, at.name.text);
        else if (at && ts.isVariableDeclaration(at) && ts.isObjectBindingPattern(at.name)) {
          for (const el of at.name.elements) {
            const key = el.propertyName ?? el.name;
            if (ts.isIdentifier(key)) markName(moduleSymbol, key.text);
            else markAll(moduleSymbol);
          }
        } else markAll(moduleSymbol);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  // .mjs scripts and benches take names from dist/ with import(): `const { a, b } = await import(…)`.
  for (const file of [...mjsFiles(join(root, 'scripts')), ...mjsFiles(join(root, 'bench')), ...mjsFiles(join(root, 'bin'))]) {
    for (const m of readFileSync(file, 'utf8').matchAll(/\{([^{}]*)\}\s*=\s*await\s+import\(/g)) {
      for (const part of m[1].split(',')) byName.add(part.split(':')[0].trim());
    }
  }

  const found = [];
  const src = resolve(root, 'src');
  for (const file of prog.getSourceFiles()) {
    if (!resolve(file.fileName).startsWith(`${src}/`)) continue;
    const moduleSymbol = checker.getSymbolAtLocation(file);
    if (!moduleSymbol || wholeModules.has(moduleSymbol)) continue;
    const path = relative(root, file.fileName);
    let uses = null;
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const name = String(exported.escapedName);
      if (used.has(original(exported)) || byName.has(name) || KEPT.has(`${path}: ${name}`)) continue;
      uses ??= localUses(checker, file);
      found.push({ where: `${path}: ${name}`, dead: !uses.has(original(exported)) && !uses.has(exported) });
    }
  }
  return found.sort((a, b) => a.where.localeCompare(b.where));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const found = unusedExports(resolve(args.find((a) => !a.startsWith('--')) ?? '.'));
  const dead = found.filter((f) => f.dead);
  for (const f of dead) process.stderr.write(`${f.where}: exported, and used nowhere\n`);
  if (args.includes('--local')) for (const f of found.filter((x) => !x.dead)) process.stderr.write(`${f.where}: exported, used only in its own file\n`);
  if (dead.length > 0) {
    process.stderr.write(`\n${dead.length} dead export(s): nothing imports them and their own file does not use them; delete them.\n`);
    process.exitCode = 1;
  }
}
