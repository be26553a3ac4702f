import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, extname } from 'node:path';
import type { LabelledReceipt, MerchantMatch } from '../fixtures/receipts/receipt-set.js';
import type { ScoredReceipt } from '../fixtures/receipts/scoring/summarise-scores.js';
import type { BenchWorld } from './bench-world.js';
import { timedRead } from './ocr-cache.js';
import { afterWarmUp, OCR_ENGINES, type OcrEngineName } from './ocr-engines.js';
import { scoreReceiptSet } from './score-receipt-set.js';
import { waitFor } from './wait-for.js';

type SetReceipt = LabelledReceipt & { path: string };

const IMAGE_TYPES: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg' };

export interface OcrAccuracy {
  scored: ScoredReceipt[];
  /** The engine's first read, models loaded: not counted in the figures per receipt. */
  startMs: number;
}

/** One engine in this process (what one OCR worker runs) over `receipts`, each read from the image: accuracy and time per receipt. */
export async function benchmarkOcrAccuracy(
  engine: OcrEngineName,
  receipts: SetReceipt[],
  merchantMatch: MerchantMatch = 'equal',
): Promise<OcrAccuracy> {
  const reader = OCR_ENGINES[engine]();
  let startMs = NaN;
  try {
    const read = afterWarmUp(reader, timedRead(reader), (ms) => {
      startMs = ms;
    });
    return { scored: await scoreReceiptSet(receipts, read, reader.looksCloser, { merchantMatch }), startMs };
  } finally {
    await reader.close();
  }
}

/**
 * Default-mode claims from image to decision (issue 22: under 3 s at the median, 6 s at worst, one
 * OCR worker): each image is served from this machine and claimed through the API one after
 * another, and each figure is the time from the claim's storing to its automated review, by the
 * database's clock. The first claim starts the worker's engine and is returned apart.
 */
export async function benchmarkImageToDecision(
  world: BenchWorld,
  port: number,
  warmUp: SetReceipt,
  receipts: SetReceipt[],
): Promise<{ firstMs: number; durations: number[] }> {
  const images = new Map([warmUp, ...receipts].map((receipt) => [`/${basename(receipt.path)}`, receipt.path]));
  const server = createServer((request, response) => {
    const path = images.get(request.url ?? '');
    if (path)
      response
        .writeHead(200, { 'Content-Type': IMAGE_TYPES[extname(path)] ?? 'application/octet-stream' })
        .end(readFileSync(path));
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const imagesBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const claim = (receipt: SetReceipt, n: number) =>
      decisionMs(world, port, `${imagesBase}/${basename(receipt.path)}`, world.members[n % world.members.length]!);
    const firstMs = await claim(warmUp, 0);
    const durations: number[] = [];
    for (const [n, receipt] of receipts.entries()) durations.push(await claim(receipt, n + 1));
    return { firstMs, durations };
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

async function decisionMs(
  world: BenchWorld,
  port: number,
  pictureUrl: string,
  member: BenchWorld['members'][number],
): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}/v1/receipts`, {
    method: 'POST',
    headers: {
      'X-Api-Key': world.apiKey,
      Authorization: `Bearer ${world.receiptsAdmin}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({ useParser: true, pictureUrl, submitter: { authIdentifier: member.authIdentifier } }),
  });
  if (response.status !== 201)
    throw new Error(`claiming ${pictureUrl} answered ${response.status}: ${await response.text()}`);
  const { data } = (await response.json()) as { data: { id: string } };
  const decision = () =>
    world.context.orm.em
      .fork()
      .getConnection()
      .execute<{ ms: number }[]>(
        `select extract(epoch from v.created_at - r.created_at) * 1000 as ms from receipt r join receipt_review v on v.receipt_id = r.id and v.is_automated where r.id = ?`,
        [data.id],
      );
  await waitFor(async () => (await decision()).length > 0, 60_000);
  return Number((await decision())[0]!.ms);
}
