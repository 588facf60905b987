import { it } from 'vitest';
import type { Page } from 'playwright-core';
import { saveScreenshot } from './harness.ts';

/**
 * The steps of one story told in order: each is a test, and a later step builds on what the
 * earlier ones did, so a step runs only when every step before it passed. With `picture`, a
 * failing step leaves e2e/screenshots/<prefix>-failed-<step>.png of the page as it stood.
 */
export function storySteps(picture?: {
  prefix: string;
  page: () => Page | undefined;
}): (name: string, run: () => Promise<void>) => void {
  let failedStep = '';
  return (name, run) => {
    it(name, async () => {
      if (failedStep) throw new Error(`not run: the step "${failedStep}" failed`);
      try {
        await run();
      } catch (err) {
        failedStep = name;
        const page = picture?.page();
        if (picture && page) {
          const file = `${picture.prefix}-failed-${name.replace(/\W+/g, '-').slice(0, 40)}`;
          await saveScreenshot(page, file).catch(() => undefined);
        }
        throw err;
      }
    });
  };
}
