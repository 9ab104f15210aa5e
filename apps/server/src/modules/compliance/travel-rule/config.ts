import { type TravelRuleProvider, toUnits } from '@exchange/shared';
import { z } from 'zod';

/** A provider of the directory the address book offers (made-up names by default: replace with real ones). */
const providerSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'ids are lower-case letters, digits, - and _'),
  name: z.string().trim().min(1).max(140),
  lei: z
    .string()
    .regex(/^[A-Z0-9]{20}$/, 'an LEI has 20 letters or digits')
    .nullable()
    .default(null),
});

const DEFAULT_PROVIDERS: TravelRuleProvider[] = [
  { id: 'vistula', name: 'Vistula Crypto S.A. (fictional)', lei: null },
  { id: 'nordwind', name: 'Nordwind Digital Assets AB (fictional)', lei: null },
  { id: 'alpenkrypto', name: 'AlpenKrypto GmbH (fictional)', lei: null },
];

/** A JSON text read as its value, for an environment variable holding JSON. */
function json(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** The travel rule's environment variables (merged into the server's configuration schema). */
export const travelRuleEnv = {
  /** JSON list of `{"id","name","lei"?}`: the providers a saved address can be declared as held by. */
  TRAVEL_RULE_PROVIDERS: z
    .preprocess(json, z.array(providerSchema).min(1).max(500))
    .refine((list) => new Set(list.map((p) => p.id)).size === list.length, 'provider ids must be unique')
    .optional(),
  /** Withdrawals to a self-hosted address above this many EUR need a proof of control first. */
  TRAVEL_RULE_SELF_HOSTED_EUR: z
    .string()
    .regex(/^(0|[1-9]\d{0,9})(\.\d{1,2})?$/, 'must be EUR with at most 2 decimals')
    .default('1000'),
  /** Our own legal name and LEI, sent as the originating provider. */
  TRAVEL_RULE_VASP_NAME: z.string().trim().min(1).max(140).default('Exchange'),
  TRAVEL_RULE_VASP_LEI: z
    .string()
    .regex(/^[A-Z0-9]{20}$/, 'an LEI has 20 letters or digits')
    .optional(),
  /** How messages reach the beneficiary's provider: the built-in simulator, or a travel-rule service's HTTP API. */
  TRAVEL_RULE_PROTOCOL: z.enum(['simulator', 'http']).default('simulator'),
  /** The travel-rule service's base URL (TRAVEL_RULE_PROTOCOL=http). */
  TRAVEL_RULE_URL: z.url().optional(),
  /** Milliseconds to wait for the provider's answer before the withdrawal waits for review. */
  TRAVEL_RULE_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** Hold for review a withdrawal to a saved address that declares nothing (saved by an older client). */
  TRAVEL_RULE_HOLD_UNDECLARED: z
    .enum(['true', 'false', '1', '0'])
    .transform((v) => v === 'true' || v === '1')
    .default(false),
  /** Minutes a message to sign stays usable. */
  TRAVEL_RULE_CHALLENGE_MINUTES: z.coerce.number().int().min(1).max(1440).default(30),
  /**
   * Minutes a deposit from another provider waits for the originator's information (from when it was first seen
   * on chain) before it is held for compliance.
   */
  TRAVEL_RULE_INCOMING_WAIT_MINUTES: z.coerce.number().int().min(0).max(10_080).default(60),
};

export interface TravelRuleConfig {
  providers: readonly TravelRuleProvider[];
  /** The self-hosted proof threshold in EUR cents: a withdrawal valued above it needs the proof. */
  selfHostedThresholdCents: bigint;
  vasp: { name: string; lei: string | null };
  challengeMinutes: number;
  protocol: 'simulator' | 'http';
  url: string | undefined;
  timeoutMs: number;
  holdUndeclared: boolean;
  /** Minutes a deposit from another provider waits for the originator's information before it is held. */
  incomingWaitMinutes: number;
  /** EUR per USDT (CARD_EUR_PER_USDT), for valuing a withdrawal in EUR. */
  eurPerUsdt: string;
}

type TravelRuleEnv = z.output<z.ZodObject<typeof travelRuleEnv>>;

/** The section of the configuration, from the validated variables. */
export function travelRuleConfig(e: TravelRuleEnv, eurPerUsdt: string): TravelRuleConfig {
  return {
    eurPerUsdt,
    providers: e.TRAVEL_RULE_PROVIDERS ?? DEFAULT_PROVIDERS,
    selfHostedThresholdCents: toUnits(e.TRAVEL_RULE_SELF_HOSTED_EUR, 2),
    vasp: { name: e.TRAVEL_RULE_VASP_NAME, lei: e.TRAVEL_RULE_VASP_LEI ?? null },
    challengeMinutes: e.TRAVEL_RULE_CHALLENGE_MINUTES,
    protocol: e.TRAVEL_RULE_PROTOCOL,
    url: e.TRAVEL_RULE_URL,
    timeoutMs: e.TRAVEL_RULE_TIMEOUT_MS,
    holdUndeclared: e.TRAVEL_RULE_HOLD_UNDECLARED,
    incomingWaitMinutes: e.TRAVEL_RULE_INCOMING_WAIT_MINUTES,
  };
}

/** The settings when none are given (a wallet built by a test without the configuration). */
export const DEFAULT_TRAVEL_RULE: TravelRuleConfig = travelRuleConfig(
  z.object(travelRuleEnv).parse({}),
  '0.92',
);
