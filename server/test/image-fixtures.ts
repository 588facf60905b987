// Pictures in the formats people bring that no library here writes: a camera RAW photo (DNG)
// and a Photoshop document, built byte by byte from their published layouts.

/** A TIFF field: BYTE (1), ASCII (2), SHORT (3) or LONG (4). */
interface Field {
  tag: number;
  type: 1 | 2 | 3 | 4;
  values: number[] | string;
}

const WIDTH = { 1: 1, 2: 1, 3: 2, 4: 4 } as const;

function fieldBytes(field: Field): Buffer {
  if (typeof field.values === 'string') return Buffer.from(`${field.values}\0`, 'latin1');
  const size = WIDTH[field.type];
  const out = Buffer.alloc(field.values.length * size);
  field.values.forEach((v, i) => {
    if (size === 1) out.writeUInt8(v, i);
    else if (size === 2) out.writeUInt16LE(v, i * 2);
    else out.writeUInt32LE(v, i * 4);
  });
  return out;
}

/**
 * A little-endian TIFF of chained directories, each with one strip (`data`): the strip's
 * offset and byte count are filled in here.
 */
function tiff(directories: Array<{ fields: Field[]; data: Buffer }>): Buffer {
  const tables: Buffer[] = [];
  const blobs: Buffer[] = [];
  let at = 8;
  const starts: number[] = [];
  const laid = directories.map(({ fields, data }) => {
    const all = [
      ...fields,
      { tag: 273, type: 4 as const, values: [0] },
      { tag: 279, type: 4 as const, values: [data.length] },
    ].sort((a, b) => a.tag - b.tag);
    starts.push(at);
    const tableSize = 2 + all.length * 12 + 4;
    const blobSize = all.reduce((sum, f) => {
      const n = fieldBytes(f).length;
      return n > 4 ? sum + n + (n % 2) : sum;
    }, 0);
    at += tableSize + blobSize;
    return all;
  });
  let dataAt = at;
  directories.forEach(({ data }, index) => {
    const all = laid[index]!;
    const start = starts[index]!;
    const table = Buffer.alloc(2 + all.length * 12 + 4);
    let blobAt = start + table.length;
    const blob: Buffer[] = [];
    table.writeUInt16LE(all.length, 0);
    all.forEach((field, i) => {
      const bytes =
        field.tag === 273 ? fieldBytes({ ...field, values: [dataAt] }) : fieldBytes(field);
      const entry = 2 + i * 12;
      table.writeUInt16LE(field.tag, entry);
      table.writeUInt16LE(field.type, entry + 2);
      table.writeUInt32LE(
        typeof field.values === 'string' ? bytes.length : field.values.length,
        entry + 4,
      );
      if (bytes.length <= 4) bytes.copy(table, entry + 8);
      else {
        table.writeUInt32LE(blobAt, entry + 8);
        const padded = bytes.length % 2 ? Buffer.concat([bytes, Buffer.alloc(1)]) : bytes;
        blob.push(padded);
        blobAt += padded.length;
      }
    });
    const next = index + 1 < directories.length ? starts[index + 1]! : 0;
    table.writeUInt32LE(next, table.length - 4);
    tables.push(table, ...blob);
    blobs.push(data);
    dataAt += data.length;
  });
  const header = Buffer.from([0x49, 0x49, 42, 0, 8, 0, 0, 0]);
  return Buffer.concat([header, ...tables, ...blobs]);
}

/**
 * A linear DNG (demosaiced RGB, 16 bits a sample, uncompressed) of one colour, as a camera or a
 * converter writes it; with `preview`, a JPEG the camera embedded, in the first directory as
 * cameras put it (it must be smaller than the photo).
 */
export function linearDng(options: {
  width: number;
  height: number;
  /** 16-bit red, green, blue */
  rgb: [number, number, number];
  preview?: { jpeg: Buffer; width: number; height: number };
}): Buffer {
  const { width, height, rgb } = options;
  const pixels = Buffer.alloc(width * height * 6);
  for (let i = 0; i < width * height; i++)
    rgb.forEach((v, c) => pixels.writeUInt16LE(v, i * 6 + c * 2));
  const dng: Field[] = [
    { tag: 271, type: 2, values: 'Nimbus' },
    { tag: 272, type: 2, values: 'Test Camera' },
    { tag: 50706, type: 1, values: [1, 4, 0, 0] },
    { tag: 50708, type: 2, values: 'Nimbus Test Camera' },
  ];
  const raw: Field[] = [
    { tag: 254, type: 4, values: [0] },
    { tag: 256, type: 4, values: [width] },
    { tag: 257, type: 4, values: [height] },
    { tag: 258, type: 3, values: [16, 16, 16] },
    { tag: 259, type: 3, values: [1] },
    // LinearRaw
    { tag: 262, type: 3, values: [34892] },
    { tag: 277, type: 3, values: [3] },
    { tag: 278, type: 4, values: [height] },
    { tag: 284, type: 3, values: [1] },
  ];
  const { preview } = options;
  if (!preview) return tiff([{ fields: [...dng, ...raw], data: pixels }]);
  const thumb: Field[] = [
    ...dng,
    { tag: 254, type: 4, values: [1] },
    { tag: 256, type: 4, values: [preview.width] },
    { tag: 257, type: 4, values: [preview.height] },
    { tag: 258, type: 3, values: [8, 8, 8] },
    // JPEG, YCbCr
    { tag: 259, type: 3, values: [7] },
    { tag: 262, type: 3, values: [6] },
    { tag: 277, type: 3, values: [3] },
    { tag: 278, type: 4, values: [preview.height] },
  ];
  return tiff([
    { fields: thumb, data: preview.jpeg },
    { fields: raw, data: pixels },
  ]);
}

/**
 * A Photoshop document (version 1, RGB, 8 bits) of one colour: no colour-mode data, image
 * resources or layers, and the composite picture uncompressed, one channel after another.
 */
export function rgbPsd(width: number, height: number, rgb: [number, number, number]): Buffer {
  const header = Buffer.alloc(26);
  header.write('8BPS', 0, 'latin1');
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(3, 12);
  header.writeUInt32BE(height, 14);
  header.writeUInt32BE(width, 18);
  header.writeUInt16BE(8, 22);
  header.writeUInt16BE(3, 24);
  const emptySections = Buffer.alloc(12);
  const compression = Buffer.alloc(2);
  const planes = rgb.map((v) => Buffer.alloc(width * height, v));
  return Buffer.concat([header, emptySections, compression, ...planes]);
}
