import { describe, expect, it } from 'vitest';
import { looksLikeRaw, rawFactsOf } from './camera-raw.ts';
import { psdHeaderOf } from './psd-image.ts';

// what `dcraw -i -v` prints for a camera's photo held upright (its output size turned)
const portrait = `
Filename: DSC_0001.NEF
Timestamp: Sat Mar 14 09:26:53 2026
Camera: Nikon D750
ISO speed: 400
Shutter: 1/250.0 sec
Aperture: f/2.8
Focal length: 50.0 mm
Embedded ICC profile: no
Number of raw images: 1
Thumb size:  6016 x 4016
Full size:   6032 x 4032
Image size:  6016 x 4016
Output size: 4016 x 6016
Raw colors: 3
Filter pattern: BG/GR
`;

describe('what dcraw says of a RAW photo', () => {
  it('reads the size as shown, the preview and the camera’s facts', () => {
    expect(rawFactsOf(portrait)).toEqual({
      width: 4016,
      height: 6016,
      previewWidth: 6016,
      previewHeight: 4016,
      exif: {
        model: 'Nikon D750',
        takenAt: '2026-03-14 09:26:53',
        exposureTime: 0.004,
        fNumber: 2.8,
        iso: 400,
        focalLength: 50,
      },
    });
  });

  it('leaves out what the camera did not say, and has nothing without a size', () => {
    const bare =
      'Timestamp: Thu Jan  1 00:00:00 1970\nShutter: 2.0 sec\nAperture: f/0.0\nOutput size: 64 x 48\n';
    expect(rawFactsOf(bare)).toEqual({
      width: 64,
      height: 48,
      previewWidth: 0,
      previewHeight: 0,
      exif: { exposureTime: 2 },
    });
    expect(rawFactsOf('Cannot decode file x.dng\n')).toBeNull();
  });
});

describe('the first bytes', () => {
  it('hand only RAW photos to dcraw', () => {
    for (const head of ['II*\0', 'MM\0*', 'IIRO', 'IIU\0', 'FUJIFILMCCD-RAW '])
      expect(looksLikeRaw(Buffer.from(head, 'latin1')), head).toBe(true);
    for (const head of ['8BPS', '\xff\xd8\xff\xe0', '<svg', ''])
      expect(looksLikeRaw(Buffer.from(head, 'latin1')), head).toBe(false);
  });

  it('hand only Photoshop documents of a sane size to ffmpeg', () => {
    const header = (version: number, width: number, height: number) => {
      const head = Buffer.alloc(26);
      head.write('8BPS', 0, 'latin1');
      head.writeUInt16BE(version, 4);
      head.writeUInt16BE(3, 12);
      head.writeUInt32BE(height, 14);
      head.writeUInt32BE(width, 18);
      return head;
    };
    expect(psdHeaderOf(header(1, 300, 200))).toEqual({ width: 300, height: 200 });
    // the large-document kind (PSB), a size beyond the format's, a cut header
    expect(psdHeaderOf(header(2, 300, 200))).toBeNull();
    expect(psdHeaderOf(header(1, 40_000, 200))).toBeNull();
    expect(psdHeaderOf(header(1, 300, 200).subarray(0, 20))).toBeNull();
  });
});
