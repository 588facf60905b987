import { describe, expect, it } from 'vitest';
import en_US from '../i18n/en_US';
import zh_CN from '../i18n/zh_CN';
import { describeFailure, type Translate } from './error-text';

type Tree = { [key: string]: string | Tree };

/** A translator over one language's resources, as i18next resolves `ns:a.b`. */
const translator =
  (resources: Tree): Translate =>
  (key) => {
    const [ns, path] = key.split(':') as [string, string];
    let node: string | Tree | undefined = resources[ns];
    for (const part of path.split('.')) node = typeof node === 'object' ? node[part] : undefined;
    return typeof node === 'string' ? node : undefined;
  };

const en = translator(en_US);
const zh = translator(zh_CN);

describe('failure texts', () => {
  it('lead with the code in the user language and keep the server message as detail', () => {
    const full = {
      code: 20,
      message: 'Not enough space left in your drive to extract this archive',
    };
    expect(describeFailure(full, en)).toBe(
      'Your storage is full — Not enough space left in your drive to extract this archive',
    );
    expect(describeFailure(full, zh)).toMatch(/^.+ — Not enough space left/);
    expect(describeFailure(full, zh).startsWith('Your')).toBe(false);
  });

  it('show the server message alone when the code only says something went wrong', () => {
    const wrong = { code: -1, message: 'Wrong username or password' };
    expect(describeFailure(wrong, en)).toBe('Wrong username or password');
    expect(describeFailure(wrong, zh)).toBe('Wrong username or password');
    expect(describeFailure({ code: -1, message: '' }, en)).toBe('Something went wrong');
  });

  it('classify by code alone, whatever the message says', () => {
    const tooLarge = { code: 10, message: 'The request is larger than the server accepts' };
    expect(describeFailure(tooLarge, en)).toMatch(/^A parameter value is not valid — /);
    expect(describeFailure(tooLarge, en)).not.toMatch(/storage/i);
  });

  it('show warnings and custom messages as the server wrote them', () => {
    expect(describeFailure({ code: -2, message: 'The current password is wrong' }, zh)).toBe(
      'The current password is wrong',
    );
    expect(describeFailure({ code: 9, message: 'Custom words' }, en)).toBe('Custom words');
  });

  it('fall back to the code alone, or to a generic text', () => {
    expect(describeFailure({ code: 7, message: '' }, en)).toBe('The file was not found');
    expect(describeFailure({ code: 999, message: '' }, en)).toBe(
      'The server got distracted, please try again',
    );
    expect(describeFailure({ code: 999, message: 'As said' }, en)).toBe('As said');
  });

  it('have a translation for every error code in both languages', () => {
    for (const code of [-1, ...Array.from({ length: 25 }, (_, i) => i + 1)]) {
      expect(en(`errors:${code}`), `en ${code}`).toBeTruthy();
      expect(zh(`errors:${code}`), `zh ${code}`).toBeTruthy();
    }
  });
});
