import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The web app's layers point one way (docs/ARCHITECTURE.md, "The web app's layers"): `main.tsx`,
 * then `app/` (router, registries, providers), then `layout/` and the features, then the shared
 * folders, each of which imports only those below it. A feature never imports another feature,
 * `layout/` no feature, and nothing imports `app/` but `main.tsx`.
 */
const SHARED = ['components', 'actions', 'api', 'lib', 'i18n', 'stores'] as const;
const RANK: Record<string, number> = {
  'main.tsx': 100,
  app: 90,
  layout: 50,
  features: 50,
  // the shared folders, highest first
  ...Object.fromEntries(SHARED.map((folder, index) => [folder, 40 - index])),
};

const src = path.dirname(fileURLToPath(import.meta.url));

/** Every source file under web/src but the tests. */
function sources(dir = src): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The room a file stands in: `features/<name>`, or the top folder (or file) of web/src. */
function roomOf(file: string): string {
  const [top, second] = path.relative(src, file).split(path.sep);
  return top === 'features' ? `features/${second}` : top!;
}

const rankOf = (room: string) => RANK[room.split('/')[0]!]!;

/** The relative imports of a file (static, dynamic, re-exports, a worker's URL) and what they name. */
function importsOf(file: string): { spec: string; target: string }[] {
  const text = fs.readFileSync(file, 'utf8');
  const specs = ts.preProcessFile(text, true, true).importedFiles.map((i) => i.fileName);
  for (const match of text.matchAll(/new URL\(\s*['"](\.[^'"]+)['"]/g)) specs.push(match[1]!);
  return specs
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => ({ spec, target: path.resolve(path.dirname(file), spec.split('?')[0]!) }));
}

/** Why an import from one room into another breaks the layers, or null when it does not. */
function breach(from: string, to: string): string | null {
  if (from === to) return null;
  if (from.startsWith('features/') && to.startsWith('features/'))
    return 'a feature imports another feature';
  if (rankOf(to) > rankOf(from)) return `${from} imports ${to}, which stands above it`;
  if (rankOf(to) === rankOf(from)) return `${from} imports ${to}, which stands beside it`;
  return null;
}

/**
 * Imports that still break the layers: the next pieces to move down. The share browser's use of
 * the upload engine. Each must still occur, so the list only shrinks.
 */
const PENDING: readonly string[] = [
  "features/share/components/ShareUploadList.tsx imports '../../upload/types': a feature imports another feature",
  "features/share/hooks/use-share-commands.tsx imports '../../upload/types': a feature imports another feature",
  "features/share/share-uploads.ts imports '../upload/api': a feature imports another feature",
  "features/share/share-uploads.ts imports '../upload/engine/adapter': a feature imports another feature",
  "features/share/share-uploads.ts imports '../upload/engine/queue': a feature imports another feature",
  "features/share/share-uploads.ts imports '../upload/engine/transfer': a feature imports another feature",
  "features/share/share-uploads.ts imports '../upload/types': a feature imports another feature",
];

function breaches(): string[] {
  const found: string[] = [];
  for (const file of sources()) {
    const from = roomOf(file);
    for (const { spec, target } of importsOf(file)) {
      const why = breach(from, roomOf(target));
      if (why) found.push(`${path.relative(src, file)} imports '${spec}': ${why}`);
    }
  }
  return found;
}

describe("the web app's layers", () => {
  const found = breaches();

  it('reads the imports of every source file', () => {
    expect(sources().length).toBeGreaterThan(300);
    expect(found.length + sources().flatMap(importsOf).length).toBeGreaterThan(1000);
  });

  it('has no import that runs up or across the layers', () => {
    const pending = new Set(PENDING);
    expect(found.filter((line) => !pending.has(line))).toEqual([]);
  });

  it('lists as pending only imports that are still there', () => {
    expect(PENDING.filter((line) => !found.includes(line))).toEqual([]);
  });
});
