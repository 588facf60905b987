import { restore } from '../backup/restore.ts';
import { cliConfig, main, progressLine } from './common.ts';

await main('usage: npm run restore -- <backup folder>', async (source) => {
  const config = cliConfig();
  const progress = progressLine('restoring');
  const summary = await restore(config, source, progress);
  progress.end();
  console.log(
    `restore done: ${summary.objects} objects verified and in place, database from ${summary.manifest.createdAt}`,
  );
});
