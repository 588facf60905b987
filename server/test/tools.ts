import { findProgram } from '../src/modules/search/content/tools.ts';

/**
 * Tests that need a program of the machine (tesseract, pdftotext, LibreOffice…) never pass by
 * doing nothing. Under CI, which installs every such program, a missing one fails the tests that
 * need it; elsewhere they are skipped, and `npm test` counts and prints them as skipped.
 */
export const underCi = process.env.CI === 'true' || process.env.CI === '1';

/** Whether to skip tests that need `available`: never under CI. */
export function skipWithout(available: boolean): boolean {
  return !available && !underCi;
}

/** Throws, naming what is missing, when tests that need it run without it (under CI). */
export function requireTool(what: string, available: boolean): void {
  if (!available)
    throw new Error(`${what} is not installed; .ci/run installs it and the tests need it`);
}

/** A program's path, found on PATH; a test that needs it fails without it. */
export function programOrFail(name: string): string {
  const found = findProgram(name);
  requireTool(name, found !== null);
  return found!;
}

export const hasProgram = (name: string) => findProgram(name) !== null;
