import { backup } from '../backup/backup.ts';
import { cliConfig, main, progressLine } from './common.ts';

await main('usage: npm run backup -- <backup folder>', async (target) => {
  const config = cliConfig();
  const progress = progressLine('backing up');
  const summary = await backup(config, target, progress);
  progress.end();
  const mb = (summary.bytesCopied / 1024 ** 2).toFixed(1);
  console.log(
    `backup done: ${summary.manifest.objects.length} objects, ${summary.copied} blobs copied (${mb} MB), ${summary.reused} already in the backup`,
  );
  for (const m of summary.manifest.missing)
    console.log(`deleted for good during the backup, not in it: ${m.kind} ${m.path}`);
});
