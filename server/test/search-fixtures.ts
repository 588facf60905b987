import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { zipToBuffer } from '../src/lib/zip.ts';
import { findProgram } from '../src/modules/search/content/tools.ts';
import { oncePerRun } from './run-fixtures.ts';

/** Documents of every kind the index reads, built here so each test knows their text. */

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const esc = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function docx(paragraphs: string[]): Promise<Buffer> {
  const body = paragraphs
    .map((p) => `<w:p><w:r><w:t xml:space="preserve">${esc(p)}</w:t></w:r></w:p>`)
    .join('');
  return zipToBuffer([
    {
      name: '[Content_Types].xml',
      content: `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`,
    },
    {
      name: 'word/document.xml',
      content: `${XML}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
    },
  ]);
}

export function xlsx(sheetName: string, cells: string[]): Promise<Buffer> {
  const strings = cells.map((c) => `<si><t>${esc(c)}</t></si>`).join('');
  return zipToBuffer([
    {
      name: 'xl/workbook.xml',
      content: `${XML}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheets><sheet name="${esc(sheetName)}" sheetId="1"/></sheets></workbook>`,
    },
    {
      name: 'xl/sharedStrings.xml',
      content: `${XML}<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${cells.length}">${strings}</sst>`,
    },
    {
      name: 'xl/worksheets/sheet1.xml',
      content: `${XML}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>inline cell text</t></is></c></row></sheetData></worksheet>`,
    },
  ]);
}

export function pptx(slides: string[]): Promise<Buffer> {
  return zipToBuffer(
    slides.map((text, i) => ({
      name: `ppt/slides/slide${i + 1}.xml`,
      content: `${XML}<p:sld xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>${esc(text)}</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>`,
    })),
  );
}

export function epub(title: string, chapters: string[]): Promise<Buffer> {
  const items = chapters
    .map((_, i) => `<item id="c${i}" href="text/ch${i}.xhtml" media-type="application/xhtml+xml"/>`)
    .join('');
  const spine = chapters.map((_, i) => `<itemref idref="c${i}"/>`).join('');
  return zipToBuffer([
    { name: 'mimetype', content: 'application/epub+zip' },
    {
      name: 'META-INF/container.xml',
      content: `${XML}<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
    },
    {
      name: 'OEBPS/content.opf',
      content: `${XML}<package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata><dc:title xmlns:dc="http://purl.org/dc/elements/1.1/">${esc(title)}</dc:title></metadata><manifest>${items}</manifest><spine>${spine}</spine></package>`,
    },
    ...chapters.map((text, i) => ({
      name: `OEBPS/text/ch${i}.xhtml`,
      content: `${XML}<html xmlns="http://www.w3.org/1999/xhtml"><head><title>ignored head</title><style>p{color:red}</style></head><body><h1>Chapter ${i + 1}</h1><p>${esc(text)}</p></body></html>`,
    })),
  ]);
}

/** A PDF built by hand: objects, their offsets, one page per line of text (Helvetica). */
function assemblePdf(objects: Array<string | Buffer>): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xE2\xE3\xCF\xD3\n', 'latin1')];
  const offsets: number[] = [];
  let size = parts[0]!.length;
  objects.forEach((obj, i) => {
    offsets.push(size);
    const head = Buffer.from(`${i + 1} 0 obj\n`, 'latin1');
    const body = Buffer.isBuffer(obj) ? obj : Buffer.from(obj, 'latin1');
    const tail = Buffer.from('\nendobj\n', 'latin1');
    parts.push(head, body, tail);
    size += head.length + body.length + tail.length;
  });
  const xref =
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('') +
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${size}\n%%EOF\n`;
  parts.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(parts);
}

export function textPdf(pages: string[]): Buffer {
  const pageIds = pages.map((_, i) => 3 + i * 2);
  const objects: string[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`,
  ];
  const fontId = 3 + pages.length * 2;
  pages.forEach((text, i) => {
    const stream = `BT /F1 18 Tf 72 720 Td (${text.replace(/[()\\]/g, (c) => `\\${c}`)}) Tj ET`;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${fontId} 0 R >> >> /Contents ${4 + i * 2} 0 R >>`,
      `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    );
  });
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  return assemblePdf(objects);
}

/** A scanned PDF: one page that is only a grey image (no text layer). */
function imagePdf(gray: { width: number; height: number; pixels: Buffer }): Buffer {
  const data = deflateSync(gray.pixels);
  const w = 612;
  const h = Math.round((612 * gray.height) / gray.width);
  const content = `q ${w} 0 0 ${h} 0 0 cm /Im1 Do Q`;
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${w} ${h}] /Resources << /XObject << /Im1 5 0 R >> >> /Contents 4 0 R >>`,
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    Buffer.concat([
      Buffer.from(
        `<< /Type /XObject /Subtype /Image /Width ${gray.width} /Height ${gray.height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length ${data.length} >>\nstream\n`,
        'latin1',
      ),
      data,
      Buffer.from('\nendstream', 'latin1'),
    ]),
  ]);
}

/** LibreOffice, pdftoppm and tesseract: what rendering text to images for OCR needs. */
export const canRenderText = () =>
  (findProgram('soffice') ?? findProgram('libreoffice')) !== null &&
  findProgram('pdftoppm') !== null;

const escapeXml = (text: string) =>
  text.replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c]!);

/**
 * A flat OpenDocument text naming its font and language, so every machine with Debian's
 * fonts-noto-cjk renders the same simplified-Chinese glyphs whatever its locale and other fonts
 * (a plain text file takes the machine's default CJK face, which OCR for chi_sim may not read).
 * Lines are paragraphs with an empty one between them, which tesseract splits most reliably.
 */
function flatTextDocument(lines: string[]): string {
  const font = 'Noto Sans CJK SC';
  const paragraphs = lines
    .map((line) => `<text:p text:style-name="P1">${escapeXml(line)}</text:p>`)
    .join('<text:p text:style-name="P1"/>');
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
  xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
  xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
  xmlns:fo="urn:oasis:names:xsl-formatting-objects:xmlns:xsl-fo-compatible:1.0"
  xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
  office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.text">
  <office:font-face-decls>
    <style:font-face style:name="${font}" svg:font-family="'${font}'"/>
  </office:font-face-decls>
  <office:automatic-styles>
    <style:style style:name="P1" style:family="paragraph">
      <style:text-properties style:font-name="${font}" fo:font-size="14pt" fo:language="en"
        fo:country="US" style:font-name-asian="${font}" style:font-size-asian="14pt"
        style:language-asian="zh" style:country-asian="CN"/>
    </style:style>
  </office:automatic-styles>
  <office:body><office:text>${paragraphs}</office:text></office:body>
</office:document>
`;
}

/**
 * Text rendered to a PDF (with embedded fonts, so Chinese works) by LibreOffice, and from
 * it a PNG picture of the page and a scanned PDF of that picture.
 */
export function renderText(lines: string[]): { pdf: Buffer; png: Buffer; scannedPdf: Buffer } {
  // LibreOffice takes seconds to start: the same lines are rendered once per test run
  const key = createHash('sha256').update(JSON.stringify(lines)).digest('hex').slice(0, 16);
  return oncePerRun(`rendered-text-${key}`, () => renderTextNow(lines));
}

function renderTextNow(lines: string[]): { pdf: Buffer; png: Buffer; scannedPdf: Buffer } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-render-'));
  try {
    const source = path.join(dir, 'text.fodt');
    fs.writeFileSync(source, flatTextDocument(lines));
    const office = (findProgram('soffice') ?? findProgram('libreoffice'))!;
    execFileSync(
      office,
      [
        `-env:UserInstallation=file://${path.join(dir, 'profile')}`,
        '--headless',
        '--convert-to',
        'pdf',
        '--outdir',
        dir,
        source,
      ],
      { stdio: 'ignore', timeout: 120_000 },
    );
    const pdf = fs.readFileSync(path.join(dir, 'text.pdf'));
    execFileSync(
      'pdftoppm',
      [
        '-r',
        '300',
        '-png',
        '-singlefile',
        '-f',
        '1',
        '-l',
        '1',
        path.join(dir, 'text.pdf'),
        path.join(dir, 'page'),
      ],
      { timeout: 60_000 },
    );
    execFileSync(
      'pdftoppm',
      [
        '-r',
        '300',
        '-gray',
        '-singlefile',
        '-f',
        '1',
        '-l',
        '1',
        path.join(dir, 'text.pdf'),
        path.join(dir, 'gray'),
      ],
      { timeout: 60_000 },
    );
    const png = fs.readFileSync(path.join(dir, 'page.png'));
    const pgm = fs.readFileSync(path.join(dir, 'gray.pgm'));
    // binary PGM: "P5\n<w> <h>\n255\n" then one byte per pixel
    const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(pgm.subarray(0, 64).toString('latin1'))!;
    const pixels = pgm.subarray(header[0].length);
    return {
      pdf,
      png,
      scannedPdf: imagePdf({ width: Number(header[1]), height: Number(header[2]), pixels }),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
