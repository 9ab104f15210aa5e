import type { IForbiddenRuleType } from 'dependency-cruiser';

/** The import rules between the repository's layers (see rules.mjs). */
export const FORBIDDEN: IForbiddenRuleType[];
