/**
 * Just enough protobuf encoding (proto3 wire format) for the messages a java-tron node hashes and signs:
 * `Transaction.raw` and its contracts, `Transaction` (its serialized size is what bandwidth is charged for) and
 * `BlockHeader.raw`. Field numbers are TRON's protocol definitions (core/Tron.proto, core/contract/*.proto).
 * proto3 leaves out fields holding their default (0, empty), and so do we: the bytes, hence the txID, match.
 */

/** Appends protobuf fields in the order they are written (callers write them by ascending field number). */
export class ProtoWriter {
  private readonly parts: Uint8Array[] = [];

  /** A varint field (wire type 0): int32, int64, enum. Negative int64 values take ten bytes, as protobuf says. */
  varint(field: number, value: bigint | number): this {
    const n = BigInt(value);
    if (n === 0n) return this;
    this.parts.push(varintBytes(BigInt((field << 3) | 0)), varintBytes(BigInt.asUintN(64, n)));
    return this;
  }

  /** A length-delimited field (wire type 2): bytes, string, embedded message. Empty is the default: left out. */
  bytes(field: number, value: Uint8Array): this {
    if (value.length === 0) return this;
    this.parts.push(varintBytes(BigInt((field << 3) | 2)), varintBytes(BigInt(value.length)), value);
    return this;
  }

  /** An embedded message is written even when empty only if `always` (repeated entries must keep their place). */
  message(field: number, value: Uint8Array, always = false): this {
    if (value.length === 0 && !always) return this;
    this.parts.push(varintBytes(BigInt((field << 3) | 2)), varintBytes(BigInt(value.length)), value);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value));
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.parts.reduce((n, p) => n + p.length, 0));
    let offset = 0;
    for (const part of this.parts) {
      out.set(part, offset);
      offset += part.length;
    }
    return out;
  }
}

function varintBytes(value: bigint): Uint8Array {
  const out: number[] = [];
  let v = value;
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v !== 0n) byte |= 0x80;
    out.push(byte);
  } while (v !== 0n);
  return Uint8Array.from(out);
}
