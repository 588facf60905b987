import path from 'node:path';
import { newId } from '../../lib/ids.ts';
import { zipToBuffer } from '../../lib/zip.ts';

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const OFFICE_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const A_NS = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const P_NS = 'http://schemas.openxmlformats.org/presentationml/2006/main';

const rels = (items: Array<[id: string, type: string, target: string]>) =>
  `${XML}<Relationships xmlns="${REL_NS}">${items
    .map(
      ([id, type, target]) =>
        `<Relationship Id="${id}" Type="${OFFICE_REL}/${type}" Target="${target}"/>`,
    )
    .join('')}</Relationships>`;

const contentTypes = (overrides: Array<[part: string, type: string]>) =>
  `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  overrides.map(([part, type]) => `<Override PartName="${part}" ContentType="${type}"/>`).join('') +
  '</Types>';

function docx(): Promise<Buffer> {
  return zipToBuffer([
    {
      name: '[Content_Types].xml',
      content: contentTypes([
        [
          '/word/document.xml',
          'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
        ],
      ]),
    },
    { name: '_rels/.rels', content: rels([['rId1', 'officeDocument', 'word/document.xml']]) },
    {
      name: 'word/document.xml',
      content: `${XML}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p/><w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr></w:body></w:document>`,
    },
  ]);
}

function xlsx(): Promise<Buffer> {
  return zipToBuffer([
    {
      name: '[Content_Types].xml',
      content: contentTypes([
        [
          '/xl/workbook.xml',
          'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml',
        ],
        [
          '/xl/worksheets/sheet1.xml',
          'application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml',
        ],
      ]),
    },
    { name: '_rels/.rels', content: rels([['rId1', 'officeDocument', 'xl/workbook.xml']]) },
    {
      name: 'xl/workbook.xml',
      content: `${XML}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${OFFICE_REL}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      content: rels([['rId1', 'worksheet', 'worksheets/sheet1.xml']]),
    },
    {
      name: 'xl/worksheets/sheet1.xml',
      content: `${XML}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData/></worksheet>`,
    },
  ]);
}

const THEME =
  `${XML}<a:theme xmlns:a="${A_NS}" name="Nimbus"><a:themeElements>` +
  '<a:clrScheme name="Nimbus"><a:dk1><a:srgbClr val="000000"/></a:dk1><a:lt1><a:srgbClr val="FFFFFF"/></a:lt1>' +
  '<a:dk2><a:srgbClr val="1F2937"/></a:dk2><a:lt2><a:srgbClr val="F3F4F6"/></a:lt2>' +
  '<a:accent1><a:srgbClr val="2563EB"/></a:accent1><a:accent2><a:srgbClr val="16A34A"/></a:accent2>' +
  '<a:accent3><a:srgbClr val="F59E0B"/></a:accent3><a:accent4><a:srgbClr val="DC2626"/></a:accent4>' +
  '<a:accent5><a:srgbClr val="7C3AED"/></a:accent5><a:accent6><a:srgbClr val="0891B2"/></a:accent6>' +
  '<a:hlink><a:srgbClr val="2563EB"/></a:hlink><a:folHlink><a:srgbClr val="7C3AED"/></a:folHlink></a:clrScheme>' +
  '<a:fontScheme name="Nimbus"><a:majorFont><a:latin typeface="Calibri"/><a:ea typeface=""/><a:cs typeface=""/></a:majorFont>' +
  '<a:minorFont><a:latin typeface="Calibri"/><a:ea typeface=""/><a:cs typeface=""/></a:minorFont></a:fontScheme>' +
  '<a:fmtScheme name="Nimbus"><a:fillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:fillStyleLst>' +
  '<a:lnStyleLst><a:ln w="6350"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln><a:ln w="12700"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln><a:ln w="19050"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln></a:lnStyleLst>' +
  '<a:effectStyleLst><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle></a:effectStyleLst>' +
  '<a:bgFillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:bgFillStyleLst></a:fmtScheme>' +
  '</a:themeElements></a:theme>';

const EMPTY_TREE =
  `<p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>` +
  `<p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/><a:chOff x="0" y="0"/><a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr></p:spTree></p:cSld>`;

function pptx(): Promise<Buffer> {
  const ns = `xmlns:a="${A_NS}" xmlns:r="${OFFICE_REL}" xmlns:p="${P_NS}"`;
  return zipToBuffer([
    {
      name: '[Content_Types].xml',
      content: contentTypes([
        [
          '/ppt/presentation.xml',
          'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml',
        ],
        [
          '/ppt/slideMasters/slideMaster1.xml',
          'application/vnd.openxmlformats-officedocument.presentationml.slideMaster+xml',
        ],
        [
          '/ppt/slideLayouts/slideLayout1.xml',
          'application/vnd.openxmlformats-officedocument.presentationml.slideLayout+xml',
        ],
        [
          '/ppt/slides/slide1.xml',
          'application/vnd.openxmlformats-officedocument.presentationml.slide+xml',
        ],
        ['/ppt/theme/theme1.xml', 'application/vnd.openxmlformats-officedocument.theme+xml'],
      ]),
    },
    { name: '_rels/.rels', content: rels([['rId1', 'officeDocument', 'ppt/presentation.xml']]) },
    {
      name: 'ppt/presentation.xml',
      content:
        `${XML}<p:presentation ${ns}><p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst>` +
        '<p:sldIdLst><p:sldId id="256" r:id="rId2"/></p:sldIdLst><p:sldSz cx="12192000" cy="6858000"/><p:notesSz cx="6858000" cy="9144000"/></p:presentation>',
    },
    {
      name: 'ppt/_rels/presentation.xml.rels',
      content: rels([
        ['rId1', 'slideMaster', 'slideMasters/slideMaster1.xml'],
        ['rId2', 'slide', 'slides/slide1.xml'],
        ['rId3', 'theme', 'theme/theme1.xml'],
      ]),
    },
    {
      name: 'ppt/slideMasters/slideMaster1.xml',
      content:
        `${XML}<p:sldMaster ${ns}>${EMPTY_TREE}` +
        '<p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/>' +
        '<p:sldLayoutIdLst><p:sldLayoutId id="2147483649" r:id="rId1"/></p:sldLayoutIdLst></p:sldMaster>',
    },
    {
      name: 'ppt/slideMasters/_rels/slideMaster1.xml.rels',
      content: rels([
        ['rId1', 'slideLayout', '../slideLayouts/slideLayout1.xml'],
        ['rId2', 'theme', '../theme/theme1.xml'],
      ]),
    },
    {
      name: 'ppt/slideLayouts/slideLayout1.xml',
      content: `${XML}<p:sldLayout ${ns} type="blank">${EMPTY_TREE}</p:sldLayout>`,
    },
    {
      name: 'ppt/slideLayouts/_rels/slideLayout1.xml.rels',
      content: rels([['rId1', 'slideMaster', '../slideMasters/slideMaster1.xml']]),
    },
    { name: 'ppt/slides/slide1.xml', content: `${XML}<p:sld ${ns}>${EMPTY_TREE}</p:sld>` },
    {
      name: 'ppt/slides/_rels/slide1.xml.rels',
      content: rels([['rId1', 'slideLayout', '../slideLayouts/slideLayout1.xml']]),
    },
    { name: 'ppt/theme/theme1.xml', content: THEME },
  ]);
}

/** The content of a new empty file of the given type (spec: new Text, Mind map, Word, Excel, PPT). */
export async function emptyFileContent(suffix: string, name: string): Promise<Buffer> {
  switch (suffix) {
    case 'docx':
      return docx();
    case 'xlsx':
      return xlsx();
    case 'pptx':
      return pptx();
    case 'mind': {
      const title = path.basename(name, path.extname(name));
      const doc = {
        root: { data: { id: newId(), text: title }, children: [] },
        template: 'default',
        theme: 'fresh-blue',
      };
      return Buffer.from(JSON.stringify(doc), 'utf8');
    }
    default:
      return Buffer.alloc(0);
  }
}
