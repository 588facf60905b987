import { describe, expect, it } from 'vitest';
import {
  DRIVE_NAME_MAX_LENGTH,
  DRIVE_NAME_PATTERN,
  driveNameSchema,
  LOGO_ACCEPT,
  LOGO_MAX_BYTES,
  logoProblem,
} from './index.ts';

describe('the drive name', () => {
  it('is one rule for the server and the web form: Chinese characters, letters, digits, "_"', () => {
    for (const name of ['Nimbus', '我的云盘_2', '㐀云']) {
      expect(driveNameSchema.safeParse(name).success, name).toBe(true);
      expect(DRIVE_NAME_PATTERN.test(name), name).toBe(true);
    }
    for (const name of ['my drive', 'drive-1', 'ドライブ', '云盘!', '']) {
      expect(driveNameSchema.safeParse(name).success, name).toBe(false);
    }
    expect(driveNameSchema.safeParse('a'.repeat(DRIVE_NAME_MAX_LENGTH)).success).toBe(true);
    expect(driveNameSchema.safeParse('a'.repeat(DRIVE_NAME_MAX_LENGTH + 1)).success).toBe(false);
  });
});

describe('the logo rule', () => {
  it('is the one rule of the server and the settings page: SVG, JPG, JPEG or PNG by name', () => {
    for (const name of ['logo.svg', 'Logo.PNG', 'a.jpg', 'b.jpeg'])
      expect(logoProblem({ name, size: 10 }), name).toBeNull();
    // a picture without one of those names is refused by the server, whatever the browser says
    for (const name of ['logo', 'logo.gif', 'logo.svg.exe', 'png'])
      expect(logoProblem({ name, size: 10 }), name).toBe('format');
    expect(logoProblem({ name: 'logo.png', size: 0 })).toBe('empty');
    expect(logoProblem({ name: 'logo.png', size: LOGO_MAX_BYTES })).toBeNull();
    expect(logoProblem({ name: 'logo.png', size: LOGO_MAX_BYTES + 1 })).toBe('size');
    expect(LOGO_ACCEPT).toBe('.svg,.jpg,.jpeg,.png');
  });
});
