import { describe, expect, it } from 'vitest';
import { DRIVE_NAME_MAX_LENGTH, DRIVE_NAME_PATTERN, driveNameSchema } from './index.ts';

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
