import { describe, expect, it } from 'vitest';
import { iconKindOf, iconLabelOf, isExtractable, openKindOf } from './file-kinds';

const file = (name: string, isFolder = false) => ({
  name,
  suffix: isFolder ? '' : (name.split('.').pop() ?? '').toLowerCase(),
  isFolder,
});

describe('file kinds', () => {
  it('picks a type icon per file type', () => {
    expect(iconKindOf(file('docs', true))).toBe('folder');
    expect(iconKindOf(file('cat.JPG'))).toBe('image');
    expect(iconKindOf(file('film.mkv'))).toBe('video');
    expect(iconKindOf(file('song.flac'))).toBe('audio');
    expect(iconKindOf(file('report.pdf'))).toBe('pdf');
    expect(iconKindOf(file('letter.docx'))).toBe('word');
    expect(iconKindOf(file('sheet.xlsx'))).toBe('excel');
    expect(iconKindOf(file('deck.pptx'))).toBe('ppt');
    expect(iconKindOf(file('backup.tar'))).toBe('archive');
    expect(iconKindOf(file('notes.md'))).toBe('markdown');
    expect(iconKindOf(file('setup.py'))).toBe('code');
    expect(iconKindOf(file('jmeter.log'))).toBe('text');
    expect(iconKindOf(file('plan.mind'))).toBe('mind');
    expect(iconKindOf({ name: 'Dockerfile', suffix: '', isFolder: false })).toBe('text');
    expect(iconKindOf(file('blob.bin'))).toBe('other');
  });

  it('gives keys and certificates, code, archives, office formats and media their own icons', () => {
    for (const name of ['site.pem', 'site.key', 'ca.crt', 'id_ed25519.pub', 'me.p12', 'a.jks'])
      expect(iconKindOf(file(name)), name).toBe('key');
    for (const name of ['main.ts', 'app.tsx', 'lib.rs', 'Main.kt', 'build.gradle', 'q.sql'])
      expect(iconKindOf(file(name)), name).toBe('code');
    for (const name of ['a.zip', 'a.tgz', 'a.7z', 'a.rar', 'a.iso', 'a.deb', 'a.lz4'])
      expect(iconKindOf(file(name)), name).toBe('archive');
    for (const name of ['a.doc', 'a.docm', 'a.dotx', 'a.wps'])
      expect(iconKindOf(file(name)), name).toBe('word');
    for (const name of ['a.xlsm', 'a.xlsb', 'a.et'])
      expect(iconKindOf(file(name)), name).toBe('excel');
    for (const name of ['a.ppsx', 'a.pptm', 'a.dps'])
      expect(iconKindOf(file(name)), name).toBe('ppt');
    expect(iconKindOf(file('a.mp3'))).toBe('audio');
    expect(iconKindOf(file('a.mov'))).toBe('video');
  });

  it('opens images in the viewer, text in the preview, the rest as a download', () => {
    expect(openKindOf(file('a', true))).toBe('folder');
    expect(openKindOf(file('a.png'))).toBe('image');
    expect(openKindOf(file('a.svg'))).toBe('none');
    expect(openKindOf(file('a.json'))).toBe('text');
    expect(openKindOf(file('README.md'))).toBe('text');
    expect(openKindOf(file('a.docx'))).toBe('none');
  });

  it('reads the suffixes the server once read otherwise as the contract does', () => {
    for (const name of ['a.apng', 'a.JFIF']) expect(openKindOf(file(name)), name).toBe('image');
    expect(iconKindOf(file('film.rmvb'))).toBe('video');
    for (const name of ['tune.mid', 'tune.midi'])
      expect(iconKindOf(file(name)), name).toBe('audio');
    // TypeScript source opens in the text preview; it is not a recorded MPEG stream
    expect([iconKindOf(file('main.ts')), openKindOf(file('main.ts'))]).toEqual(['code', 'text']);
  });

  it('knows which archives the server extracts', () => {
    expect(isExtractable(file('a.zip'))).toBe(true);
    expect(isExtractable(file('a.tar.gz'))).toBe(true);
    expect(isExtractable(file('a.tgz'))).toBe(true);
    expect(isExtractable(file('a.7z'))).toBe(true);
    expect(isExtractable(file('a.RAR'))).toBe(true);
    expect(isExtractable(file('a.tar.xz'))).toBe(false);
    expect(isExtractable(file('a.zip', true))).toBe(false);
  });

  it('labels icons with the extension', () => {
    expect(iconLabelOf(file('a.html'))).toBe('HTML');
    expect(iconLabelOf(file('a.markdown'))).toBe('MARK');
    expect(iconLabelOf(file('x', true))).toBe('');
  });
});
