/**
 * Functions of the app over a length: each function, method and arrow function of
 * packages/app/src, by its lines from the first to the last, inner functions counted in the
 * outer one. Factories are left aside (a function named create…, one that returns an object of
 * two or more functions, or one whose body only returns a function): their length is the
 * functions they hand out, each counted on its own.
 *
 *   npx tsx scripts/long-functions.ts [--over N]     (N = 80 unless given)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export interface LongFunction {
  file: string;
  name: string;
  line: number;
  lines: number;
}

function nameOf(node: ts.Node): string {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) {
    return node.name.getText();
  }
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText();
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText();
  return '(anonymous)';
}

function isFactory(node: ts.FunctionLikeDeclaration, name: string): boolean {
  if (/^create[A-Z]/.test(name)) return true;
  const body = node.body;
  if (!body) return false;
  const returned = ts.isBlock(body)
    ? (() => {
        const last = body.statements.at(-1);
        return last && ts.isReturnStatement(last) ? last.expression : undefined;
      })()
    : body;
  if (!returned) return false;
  // A listener's factory: deps in, the listener out; the listener is counted on its own.
  const handsOutOne = ts.isArrowFunction(returned) || ts.isFunctionExpression(returned);
  if (handsOutOne && ts.isBlock(body) && body.statements.length === 1) return true;
  if (!ts.isObjectLiteralExpression(returned)) return false;
  const functions = returned.properties.filter(
    (p) =>
      ts.isMethodDeclaration(p) ||
      ts.isGetAccessorDeclaration(p) ||
      (ts.isPropertyAssignment(p) &&
        (ts.isArrowFunction(p.initializer) || ts.isFunctionExpression(p.initializer))),
  );
  return functions.length >= 2;
}

/** The functions of one source text longer than `over` lines. */
export function longFunctions(file: string, text: string, over: number): LongFunction[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isFunctionDeclaration(node) ||
        ts.isMethodDeclaration(node) ||
        ts.isArrowFunction(node) ||
        ts.isFunctionExpression(node)) &&
      node.body
    ) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      const name = nameOf(node);
      if (lines > over && !isFactory(node, name)) {
        found.push({ file, name, line: start + 1, lines });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every long function under `dir` (.ts files), longest first. */
export function longFunctionsUnder(root: string, dir: string, over = 80): LongFunction[] {
  const files = (readdirSync(join(root, dir), { recursive: true }) as string[]).filter((f) =>
    f.endsWith('.ts'),
  );
  return files
    .flatMap((f) => {
      const path = join(root, dir, f);
      return longFunctions(relative(root, path), readFileSync(path, 'utf8'), over);
    })
    .sort((a, b) => b.lines - a.lines);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--over');
  const over = at > 0 ? Number(process.argv[at + 1]) : 80;
  const long = longFunctionsUnder(process.cwd(), 'packages/app/src', over);
  for (const f of long) process.stdout.write(`${f.lines}\t${f.file}:${f.line}\t${f.name}\n`);
  process.stdout.write(`${long.length} functions over ${over} lines (factories aside)\n`);
}
