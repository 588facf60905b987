import fs from 'node:fs';
import path from 'node:path';

/**
 * Fixtures that take a program's time to make (LibreOffice, ffmpeg…), made once per test run:
 * the first test file that asks for one makes it, the same file on the other database (or any
 * other file asking by the same name) reads the bytes back. The folder is the run's own
 * (`NIMBUS_TEST_FIXTURES`, set by the vitest config, gone with the run); without it, every call
 * makes its fixture afresh. `name` must say everything `make` depends on.
 */
export function oncePerRun<K extends string>(
  name: string,
  make: () => Record<K, Buffer>,
): Record<K, Buffer> {
  const root = process.env.NIMBUS_TEST_FIXTURES;
  if (!root || !fs.existsSync(root)) return make();
  const folder = path.join(root, name.replace(/[^\w.-]+/g, '_'));
  if (fs.existsSync(folder)) {
    const files = {} as Record<K, Buffer>;
    for (const file of fs.readdirSync(folder))
      files[file as K] = fs.readFileSync(path.join(folder, file));
    return files;
  }
  const files = make();
  // written beside, then renamed into place whole: a reader never sees half of it, and two
  // files making the same fixture at once leave one of their (equal) results
  const partial = `${folder}.${process.pid}.partial`;
  fs.mkdirSync(partial, { recursive: true });
  for (const [file, bytes] of Object.entries<Buffer>(files))
    fs.writeFileSync(path.join(partial, file), bytes);
  try {
    fs.renameSync(partial, folder);
  } catch {
    fs.rmSync(partial, { recursive: true, force: true });
  }
  return files;
}
