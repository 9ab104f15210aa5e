#!/usr/bin/env node
/**
 * Keeps the repository's documents and the code that cites them true to each other:
 * - every `docs/<file>.md#<anchor>` cited in code, README.md, ARCHITECTURE.md or docs/ exists (a file and, after
 *   it, `#a, #b` or `#a and #b` anchors of that same file);
 * - no citation of the old, unpublished documents remains (the section-sign forms of the spec and the design
 *   handbook);
 * - every repository path ARCHITECTURE.md names (in backticks or as a link) exists.
 *
 * Plain Node, no dependency. Usage: `node scripts/check-docs.mjs [--root <dir>]`; exits 1 and lists each problem.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SECTION = '\u00a7';
/** Citations of the documents that are not in the repository (written with an escape so this file passes itself). */
const OLD_CITATION = new RegExp(`\\bspec ${SECTION}|DESIGN\\.md ${SECTION}`, 'i');
/** `docs/<file>.md`, optionally `#a`, then more anchors of the same file: `, #b`, ` and #c`. */
const DOC_REF = /(?<![\w/.-])docs\/([\w-]+)\.md((?:#[\w-]+)(?:(?:,\s*|\s+and\s+)#[\w-]+)*)?/g;
/** Markdown links: `[text](target)`. */
const MD_LINK = /\]\(([^)\s]+)\)/g;

const SOURCE_ROOTS = ['apps', 'packages', 'e2e', 'scripts', 'deploy'];
const SOURCE_EXT = /\.(ts|tsx|mts|cts|js|mjs|cjs|css|html|sql|md|yml|yaml|json)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'build', 'coverage', '.git', 'artifacts', 'cache']);

/** Every file under `dir` worth reading, skipping dependencies and build output. */
function walk(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (SOURCE_EXT.test(entry.name)) out.push(path);
  }
  return out;
}

/** GitHub's heading slug, so a heading works as an anchor too. */
function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a markdown file: explicit `<a id="…">` and heading slugs. */
function anchorsOf(text) {
  const anchors = new Set();
  for (const m of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]);
  for (const m of text.matchAll(/^#{1,6}\s+(.+)$/gm)) anchors.add(slug(m[1]));
  return anchors;
}

/**
 * Checks the repository at `root`; returns the problems found, one line each (`file:line: what`).
 * @param {string} root
 * @returns {string[]}
 */
export function checkDocs(root) {
  const problems = [];
  const docsDir = join(root, 'docs');
  const anchorCache = new Map();
  const anchorsFor = (file) => {
    if (!anchorCache.has(file)) {
      const path = join(docsDir, `${file}.md`);
      anchorCache.set(file, existsSync(path) ? anchorsOf(readFileSync(path, 'utf8')) : null);
    }
    return anchorCache.get(file);
  };

  const files = SOURCE_ROOTS.flatMap((d) => walk(join(root, d)));
  for (const extra of ['README.md', 'ARCHITECTURE.md', 'SECURITY.md']) {
    if (existsSync(join(root, extra))) files.push(join(root, extra));
  }
  files.push(...walk(docsDir));

  for (const path of files) {
    const rel = relative(root, path);
    const lines = readFileSync(path, 'utf8').split('\n');
    lines.forEach((line, i) => {
      const where = `${rel}:${i + 1}`;
      if (OLD_CITATION.test(line)) {
        problems.push(
          `${where}: cites a document that is not in the repository; cite docs/<file>.md#<anchor>`,
        );
      }
      for (const m of line.matchAll(DOC_REF)) {
        const [, file, tail] = m;
        const anchors = anchorsFor(file);
        if (!anchors) {
          problems.push(`${where}: docs/${file}.md does not exist`);
          continue;
        }
        for (const a of (tail ?? '').matchAll(/#([\w-]+)/g)) {
          if (!anchors.has(a[1])) problems.push(`${where}: docs/${file}.md has no anchor #${a[1]}`);
        }
      }
    });
  }

  // Relative links inside the markdown documents (docs/*.md, README.md, ARCHITECTURE.md).
  const markdown = [...walk(docsDir), join(root, 'README.md'), join(root, 'ARCHITECTURE.md')].filter(
    existsSync,
  );
  for (const path of markdown) {
    const rel = relative(root, path);
    readFileSync(path, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        for (const m of line.matchAll(MD_LINK)) {
          const target = m[1];
          if (/^[a-z]+:/i.test(target) || target.startsWith('#') || target.startsWith('/')) continue;
          const [file, anchor] = target.split('#');
          const full = resolve(dirname(path), file);
          if (!existsSync(full)) {
            problems.push(`${rel}:${i + 1}: link to ${target}: no such file`);
            continue;
          }
          if (anchor && full.endsWith('.md') && !anchorsOf(readFileSync(full, 'utf8')).has(anchor)) {
            problems.push(`${rel}:${i + 1}: link to ${target}: no such anchor`);
          }
        }
      });
  }

  // Paths ARCHITECTURE.md names in backticks: anything with a slash that is not a URL route, template or glob.
  const architecture = join(root, 'ARCHITECTURE.md');
  if (existsSync(architecture)) {
    readFileSync(architecture, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        for (const m of line.matchAll(/`([^`\s]+)`/g)) {
          const token = m[1];
          if (!token.includes('/') || token.startsWith('/') || /[<>*{}:=|]/.test(token)) continue;
          const path = token.replace(/#.*$/, '').replace(/\/$/, '');
          if (!existsSync(join(root, path))) {
            problems.push(`ARCHITECTURE.md:${i + 1}: names ${token}, which does not exist`);
          }
        }
      });
  } else {
    problems.push('ARCHITECTURE.md is missing');
  }
  return problems;
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const at = process.argv.indexOf('--root');
  const root = resolve(at > 0 ? process.argv[at + 1] : join(dirname(fileURLToPath(import.meta.url)), '..'));
  if (!statSync(root).isDirectory()) throw new Error(`not a directory: ${root}`);
  const problems = checkDocs(root);
  if (problems.length > 0) {
    console.error(`check-docs: ${problems.length} problem(s)\n${problems.join('\n')}`);
    process.exit(1);
  }
  console.log('check-docs: every cited anchor and every path in ARCHITECTURE.md exists');
}
