import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENV_VARIABLES } from './config.ts';

// What the README, the docs and .env.example say about configuration and commands holds for the
// code: a variable they name is read, a variable read is in README's table, a command they name
// exists.

const root = path.resolve(import.meta.dirname, '..', '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
const readme = read('README.md');
const docs = [
  'README.md',
  'docs/ARCHITECTURE.md',
  'docs/API.md',
  'docs/DECISIONS.md',
  'docs/operations.md',
];

/** Variables only the tests and benchmarks read, each with the file that reads it. */
const TEST_VARIABLES: Record<string, string> = {
  NIMBUS_TEST_DIALECT: 'vitest.config.ts',
  CHROMIUM_PATH: 'e2e/harness.ts',
  NIMBUS_BENCH_CPU_PROF: 'bench/files.bench.ts',
};

const namesIn = (text: string) => new Set(text.match(/\bNIMBUS_[A-Z0-9_]+\b/g) ?? []);

/** The variables of README's configuration table, in its order. */
function tableVariables(): string[] {
  return readme
    .split('\n')
    .map((line) => /^\|\s*`([A-Z][A-Z0-9_]+)`\s*\|/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);
}

describe('the configuration the docs describe', () => {
  it('README’s table names every variable config.ts reads, and no other', () => {
    const table = tableVariables();
    expect(new Set(table).size).toBe(table.length);
    expect([...table].sort()).toEqual([...ENV_VARIABLES].sort());
  });

  it('every NIMBUS_ variable the docs name is read by the server (or, for tests, by them)', () => {
    for (const file of docs) {
      for (const name of namesIn(read(file))) {
        const reader = TEST_VARIABLES[name];
        if (reader) expect(read(reader), `${name} in ${reader}`).toContain(name);
        else expect(ENV_VARIABLES, `${name} named in ${file}`).toContain(name);
      }
    }
  });

  it('README’s test variables are read where it says', () => {
    for (const [name, reader] of Object.entries(TEST_VARIABLES)) {
      expect(readme).toContain(name);
      expect(read(reader)).toContain(name);
    }
  });

  it('.env.example offers only variables config.ts reads, each of them', () => {
    const offered = [...read('.env.example').matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map(
      (match) => match[1],
    );
    expect(offered.length).toBeGreaterThan(0);
    for (const name of offered) expect(ENV_VARIABLES, `.env.example: ${name}`).toContain(name);
    expect([...new Set(offered)].sort()).toEqual([...ENV_VARIABLES].sort());
  });
});

describe('the commands the docs name', () => {
  const scriptsOf = (folder: string): Record<string, string> =>
    (JSON.parse(read(path.join(folder, 'package.json'))) as { scripts?: Record<string, string> })
      .scripts ?? {};
  const workspaces = (JSON.parse(read('package.json')) as { workspaces: string[] }).workspaces;

  it('exist in package.json (a workspace’s for `-w`)', () => {
    let named = 0;
    for (const file of docs) {
      const text = read(file);
      for (const match of text.matchAll(/\bnpm (start|test)\b/g)) {
        named += 1;
        expect(scriptsOf('.'), `npm ${match[1]} in ${file}`).toHaveProperty([match[1]!]);
      }
      for (const match of text.matchAll(
        /\bnpm run ([\w:.-]+)(?: (?:-w|--workspace)[ =]([\w@/.-]+))?/g,
      )) {
        named += 1;
        const [, script, workspace] = match;
        const folder = workspace
          ? (workspaces.find((w) => w === workspace || w.endsWith(`/${workspace}`)) ??
            workspaces.find(
              (w) =>
                (JSON.parse(read(path.join(w, 'package.json'))) as { name: string }).name ===
                workspace,
            ))
          : '.';
        expect(folder, `workspace ${workspace} in ${file}`).toBeDefined();
        expect(scriptsOf(folder!), `npm run ${script} in ${file}`).toHaveProperty([script!]);
      }
    }
    expect(named).toBeGreaterThan(5);
  });
});

describe('the code tree ARCHITECTURE.md draws', () => {
  const architecture = read('docs/ARCHITECTURE.md');
  const sources = (dir: string) =>
    fs
      .readdirSync(path.join(root, dir))
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));

  it('names every file of the contract', () => {
    for (const file of sources('packages/contract/src'))
      expect(architecture, file).toContain(`src/${file}`);
  });

  it('names every server module, and only modules there are', () => {
    const modules = fs.readdirSync(path.join(root, 'server/src/modules'));
    for (const name of modules) expect(architecture, name).toMatch(new RegExp(`\\n {4}${name}/ `));
    const drawn = [...architecture.matchAll(/\n {4}([a-z]+)\/ {2,}/g)].map((m) => m[1]);
    expect(drawn.filter((name) => !modules.includes(name!))).toEqual([]);
  });
});
