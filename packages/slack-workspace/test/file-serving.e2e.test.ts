/**
 * How the workspace serves stored files, on the page's origin: a download under the file's own
 * name, never a document the browser would run; an image inline only when its bytes are one.
 */
import { webApi } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentDisposition, imageTypeOf } from '../src/file-response.js';
import { startWorkspace, type Workspace } from '../src/index.js';
import { PEOPLE } from './support.js';

let ws: Workspace;

beforeEach(async () => {
  ws = await startWorkspace();
  for (const person of PEOPLE) ws.addUser(person);
});
afterEach(() => ws.close());

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkaPj/HwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);
const HTML = '<!DOCTYPE html><script>parent.stolen = document.cookie</script>';
const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';

const pageFile = (id: string) => fetch(`${ws.url}/workspace-api/files/${id}`);
const privateFile = (id: string, name: string) =>
  fetch(`${ws.url}/files/${id}/${name}`, {
    headers: { authorization: `Bearer ${ws.team.botToken}` },
  });

describe('a file served to the page', () => {
  it('is a download, not a page, whatever type its uploader gave', async () => {
    ws.addFile({ id: 'F0HTML', name: 'receipt.html', mimetype: 'text/html', content: HTML });
    for (const served of [await pageFile('F0HTML'), await privateFile('F0HTML', 'receipt.html')]) {
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('application/octet-stream');
      expect(served.headers.get('content-disposition')).toBe('attachment; filename="receipt.html"');
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
      expect(await served.text()).toBe(HTML);
    }
  });

  it('shows an image inline only when its bytes are an image; never an SVG', async () => {
    ws.addFile({ id: 'F0PNG', name: 'bill.png', mimetype: 'image/png', content: PNG });
    ws.addFile({ id: 'F0FAKE', name: 'bill.png', mimetype: 'image/png', content: HTML });
    ws.addFile({ id: 'F0SVG', name: 'logo.svg', mimetype: 'image/svg+xml', content: SVG });
    ws.addFile({ id: 'F0ODD', name: 'odd.jpg', mimetype: 'text/html', content: PNG });

    const png = await pageFile('F0PNG');
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(png.headers.get('content-disposition')).toBe('inline; filename="bill.png"');
    expect(Buffer.from(await png.arrayBuffer())).toEqual(PNG);

    const fake = await pageFile('F0FAKE');
    expect(fake.headers.get('content-disposition')).toBe('attachment; filename="bill.png"');
    expect(fake.headers.get('content-type')).toBe('image/png');
    expect(fake.headers.get('x-content-type-options')).toBe('nosniff');

    const svg = await pageFile('F0SVG');
    expect(svg.headers.get('content-disposition')).toBe('attachment; filename="logo.svg"');
    expect(svg.headers.get('content-type')).toBe('application/octet-stream');

    // The bytes decide, not the declared type.
    const odd = await pageFile('F0ODD');
    expect(odd.headers.get('content-type')).toBe('image/png');
    expect(odd.headers.get('content-disposition')).toBe('inline; filename="odd.jpg"');
  });

  it('downloads an exported CSV under its own name', async () => {
    const client = new webApi.WebClient(ws.team.botToken, {
      slackApiUrl: ws.apiUrl,
      retryConfig: { retries: 0 },
    });
    await client.files.uploadV2({
      channel_id: 'U0ANN',
      file: Buffer.from('Date,Cost\r\n2026-11-20,12.50\r\n'),
      filename: 'expenses-2026-11-20.csv',
      initial_comment: '1 expense',
    });
    const files = Object.values(ws.pageState('U0ANN').messages)
      .flat()
      .flatMap((m) => m.files ?? []);
    const url = files.find((f) => f.name === 'expenses-2026-11-20.csv')?.url;
    expect(url).toBeDefined();
    const served = await fetch(url!);
    expect(served.headers.get('content-type')).toBe('text/csv');
    expect(served.headers.get('content-disposition')).toBe(
      'attachment; filename="expenses-2026-11-20.csv"',
    );
  });

  it('names a file with any characters in the UTF-8 form, with an ASCII fallback', async () => {
    ws.addFile({ id: 'F0UTF', name: 'Relevé d’été 2026.csv', mimetype: 'text/csv', content: 'a' });
    const served = await pageFile('F0UTF');
    expect(served.headers.get('content-disposition')).toBe(
      `attachment; filename="Relev_ d__t_ 2026.csv"; filename*=UTF-8''Relev%C3%A9%20d%E2%80%99%C3%A9t%C3%A9%202026.csv`,
    );
  });
});

describe('the header pieces', () => {
  it('encodes names by RFC 6266 and RFC 5987', () => {
    expect(contentDisposition('attachment', 'plain.csv')).toBe('attachment; filename="plain.csv"');
    expect(contentDisposition('attachment', 'a "b" \\c 100%.txt')).toBe(
      `attachment; filename="a _b_ _c 100_.txt"; filename*=UTF-8''a%20%22b%22%20%5Cc%20100%25.txt`,
    );
    expect(contentDisposition('inline', 'x\r\ny(1)*.png')).toBe(
      `inline; filename="x__y(1)*.png"; filename*=UTF-8''x%0D%0Ay%281%29%2A.png`,
    );
    expect(contentDisposition('attachment', '📎.txt')).toBe(
      `attachment; filename="_.txt"; filename*=UTF-8''%F0%9F%93%8E.txt`,
    );
  });

  it('tells images apart by their signatures', () => {
    expect(imageTypeOf(PNG)).toBe('image/png');
    expect(imageTypeOf(Buffer.from('ffd8ffe000104a464946', 'hex'))).toBe('image/jpeg');
    expect(imageTypeOf(Buffer.from('GIF89a\x01\x00', 'latin1'))).toBe('image/gif');
    expect(imageTypeOf(Buffer.from('GIF87a\x01\x00', 'latin1'))).toBe('image/gif');
    expect(imageTypeOf(Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 ', 'latin1'))).toBe('image/webp');
    expect(imageTypeOf(Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ', 'latin1'))).toBeUndefined();
    expect(imageTypeOf(Buffer.from(SVG))).toBeUndefined();
    expect(imageTypeOf(Buffer.from('\x89PN', 'latin1'))).toBeUndefined();
    expect(imageTypeOf(Buffer.alloc(0))).toBeUndefined();
  });
});
