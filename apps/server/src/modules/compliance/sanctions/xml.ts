/**
 * A streaming reader of the EU consolidated financial sanctions list (the Financial Sanctions Files XML,
 * `xmlFullSanctionsList_1_1`): `<export generationDate>` holding `<sanctionEntity logicalId euReferenceNumber>`
 * elements, each with `<nameAlias wholeName firstName middleName lastName function>`, `<subjectType code>`,
 * `<regulation programme numberTitle>`, `<birthdate birthdate>` and `<citizenship countryIso2Code>`.
 *
 * Written for that limited structure rather than as a general XML parser: the file is read in chunks, only tags
 * and their attributes are looked at (text content is skipped), and no tag may exceed {@link MAX_TAG_CHARS}, so
 * memory stays bounded whatever the file holds. No DTD is read and no external entity is ever resolved.
 */

/** One sanctioned person or entity as the list gives it. */
export interface SanctionsEntity {
  logicalId: string;
  euReference: string | null;
  /** `person`, `enterprise`, or whatever code the file gives (`subjectType/@code`). */
  subjectType: string;
  /** The first regulation: its programme and number, e.g. `UKR 2014/269`. */
  regulation: string | null;
  names: { wholeName: string; function: string | null }[];
  birthdates: string[];
  citizenships: string[];
}

/** The longest tag (with its attributes) the reader accepts. */
export const MAX_TAG_CHARS = 1 << 20;

/** The file is not a list the reader understands. */
export class SanctionsFileError extends Error {}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, ref: string) => {
    if (ref.startsWith('#x')) return String.fromCodePoint(Number.parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(Number.parseInt(ref.slice(1), 10));
    return ENTITIES[ref] ?? whole;
  });
}

function attributes(source: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of source.matchAll(/([^\s=/]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    const name = (m[1] ?? '').replace(/^.*:/, '');
    out.set(name, decodeEntities(m[2] ?? m[3] ?? ''));
  }
  return out;
}

/** Where the closing `>` of a tag starting at `from` is (quotes respected), or -1 while it has not arrived. */
function tagEnd(buffer: string, from: number): number {
  let quote = '';
  for (let i = from; i < buffer.length; i++) {
    const c = buffer[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return i;
  }
  return -1;
}

type TagEvent = { kind: 'open' | 'close' | 'empty'; name: string; attrs: Map<string, string> };

/** Splits text arriving in chunks into tags; `feed` returns the complete ones. */
class TagReader {
  private buffer = '';

  feed(text: string): TagEvent[] {
    this.buffer += text;
    const events: TagEvent[] = [];
    let at = 0;
    for (;;) {
      const lt = this.buffer.indexOf('<', at);
      if (lt < 0) {
        at = this.buffer.length;
        break;
      }
      const rest = this.buffer.slice(lt, lt + 9);
      let end: number;
      let skip = 0;
      if (rest.startsWith('<!--')) {
        end = this.buffer.indexOf('-->', lt + 4);
        skip = 3;
      } else if (rest.startsWith('<![CDATA[')) {
        end = this.buffer.indexOf(']]>', lt + 9);
        skip = 3;
      } else {
        end = tagEnd(this.buffer, lt + 1);
        skip = 1;
      }
      if (end < 0) {
        at = lt;
        break;
      }
      const inner = this.buffer.slice(lt + 1, end);
      at = end + skip;
      if (inner.startsWith('?') || inner.startsWith('!')) continue;
      if (inner.startsWith('/')) {
        events.push({ kind: 'close', name: localName(inner.slice(1)), attrs: new Map() });
        continue;
      }
      const empty = inner.endsWith('/');
      const body = empty ? inner.slice(0, -1) : inner;
      const nameEnd = body.search(/\s|$/);
      events.push({
        kind: empty ? 'empty' : 'open',
        name: localName(body.slice(0, nameEnd)),
        attrs: attributes(body.slice(nameEnd)),
      });
    }
    this.buffer = this.buffer.slice(at);
    if (this.buffer.length > MAX_TAG_CHARS) throw new SanctionsFileError('a tag of the file is too long');
    return events;
  }

  /** True when nothing but text is left over. */
  get finished(): boolean {
    return !this.buffer.includes('<');
  }
}

function localName(name: string): string {
  return name.trim().replace(/^.*:/, '');
}

/**
 * Reads a list file's chunks and gives each entity to `onEntity` as soon as its element closes. Returns the
 * file's `generationDate`. Throws {@link SanctionsFileError} for a file that is not such a list.
 */
export async function readSanctionsList(
  chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  onEntity: (entity: SanctionsEntity) => void,
): Promise<{ generationDate: string | null; entities: number }> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const reader = new TagReader();
  let root: string | null = null;
  let generationDate: string | null = null;
  let entity: SanctionsEntity | null = null;
  let depth = 0;
  let entityDepth = 0;
  let count = 0;
  const handle = (event: TagEvent) => {
    if (event.kind === 'close') {
      depth--;
      if (entity && depth === entityDepth && event.name === 'sanctionEntity') {
        if (!entity.logicalId) throw new SanctionsFileError('a sanctionEntity without a logicalId');
        onEntity(entity);
        count++;
        entity = null;
      }
      return;
    }
    if (root === null) {
      root = event.name;
      if (root !== 'export') throw new SanctionsFileError(`the root element is <${root}>, not <export>`);
      generationDate = event.attrs.get('generationDate') ?? null;
    } else if (event.name === 'sanctionEntity' && !entity) {
      entity = {
        logicalId: event.attrs.get('logicalId') ?? '',
        euReference: event.attrs.get('euReferenceNumber') || null,
        subjectType: 'unknown',
        regulation: null,
        names: [],
        birthdates: [],
        citizenships: [],
      };
      entityDepth = depth;
    } else if (entity) {
      readChild(entity, event, depth === entityDepth + 1);
    }
    if (event.kind === 'open') depth++;
  };
  const decode = (chunk?: Uint8Array) => {
    try {
      return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    } catch {
      throw new SanctionsFileError('the file is not UTF-8 text');
    }
  };
  for await (const chunk of chunks) {
    const text = typeof chunk === 'string' ? chunk : decode(chunk);
    for (const event of reader.feed(text)) handle(event);
  }
  for (const event of reader.feed(decode())) handle(event);
  if (root === null) throw new SanctionsFileError('the file holds no XML element');
  if (!reader.finished || depth !== 0) throw new SanctionsFileError('the file ends inside an element');
  return { generationDate, entities: count };
}

function readChild(entity: SanctionsEntity, event: TagEvent, direct: boolean): void {
  const a = event.attrs;
  if (event.name === 'nameAlias') {
    const whole =
      a.get('wholeName')?.trim() ||
      [a.get('firstName'), a.get('middleName'), a.get('lastName')]
        .map((p) => p?.trim())
        .filter(Boolean)
        .join(' ');
    if (whole) entity.names.push({ wholeName: whole, function: a.get('function')?.trim() || null });
  } else if (event.name === 'subjectType' && direct) {
    entity.subjectType = a.get('code')?.trim() || entity.subjectType;
  } else if (event.name === 'regulation' && direct && entity.regulation === null) {
    const text = [a.get('programme'), a.get('numberTitle')].filter((p) => p?.trim()).join(' ');
    entity.regulation = text || null;
  } else if (event.name === 'birthdate') {
    const date = a.get('birthdate')?.trim() || a.get('year')?.trim();
    if (date) entity.birthdates.push(date);
  } else if (event.name === 'citizenship') {
    const country = a.get('countryIso2Code')?.trim();
    if (country && country !== '00') entity.citizenships.push(country);
  }
}
