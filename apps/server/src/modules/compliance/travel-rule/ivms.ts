import type pg from 'pg';
import type { TravelRuleConfig } from './config.ts';
import { originatorProfile, uidOfUser } from './outgoing-repository.ts';

/**
 * The interVASP Messaging Standard (IVMS 101) shapes the travel rule's data travels in. Only the parts we fill
 * are typed; field names are the standard's (camelCase JSON).
 */
export interface NaturalPersonNameId {
  primaryIdentifier: string;
  secondaryIdentifier?: string;
  nameIdentifierType: 'LEGL' | 'MISC';
}
export interface GeographicAddress {
  addressType: 'HOME' | 'GEOG';
  addressLine?: string[];
  postCode?: string;
  townName?: string;
  country: string;
}
export interface NaturalPerson {
  name: { nameIdentifier: NaturalPersonNameId[] };
  geographicAddress?: GeographicAddress[];
  customerIdentification?: string;
  dateAndPlaceOfBirth?: { dateOfBirth: string; placeOfBirth: string };
  countryOfResidence?: string;
}
export interface LegalPerson {
  name: { nameIdentifier: { legalPersonName: string; legalPersonNameIdentifierType: 'LEGL' }[] };
  nationalIdentification?: { nationalIdentifier: string; nationalIdentifierType: 'LEIX' };
}
export type IvmsPerson = { naturalPerson: NaturalPerson } | { legalPerson: LegalPerson };

/** The IVMS 101 identity payload of one transfer. */
export interface IvmsPayload {
  originator: { originatorPersons: IvmsPerson[]; accountNumber: string[] };
  beneficiary: { beneficiaryPersons: IvmsPerson[]; accountNumber: string[] };
  originatingVASP: { originatingVASP: IvmsPerson };
  /** Absent for a self-hosted address (no provider on the other side). */
  beneficiaryVASP?: { beneficiaryVASP: IvmsPerson };
}

/** The saved address's beneficiary information, as the withdrawal uses it. */
export interface BeneficiaryParty {
  /** The address it goes to; for a transfer between two customers here, the recipient's account (uid). */
  address: string;
  beneficiaryName: string | null;
  provider: { name: string; lei: string | null } | null;
  /** The beneficiary as a verified customer here ({@link customerBeneficiary}), in place of a declared name. */
  person?: NaturalPerson;
}

/** A provider as an IVMS legal person: its name, and its LEI when known. */
export function vaspPerson(vasp: { name: string; lei: string | null }): IvmsPerson {
  return {
    legalPerson: {
      name: { nameIdentifier: [{ legalPersonName: vasp.name, legalPersonNameIdentifierType: 'LEGL' }] },
      ...(vasp.lei
        ? { nationalIdentification: { nationalIdentifier: vasp.lei, nationalIdentifierType: 'LEIX' } }
        : {}),
    },
  };
}

/**
 * The originator as the regulation asks (art. 14(1)): name, the account (our uid), and the address with date of
 * birth, from the user's verified profile (the latest verified one, else the latest). A name-less originator is
 * sent with the uid only, and the caller reports the information as missing.
 */
export async function originatorPerson(
  db: pg.Pool,
  userId: string,
  uid: string,
): Promise<{ person: NaturalPerson; complete: boolean }> {
  const row = await originatorProfile(db, userId);
  const person: NaturalPerson = { name: { nameIdentifier: [] }, customerIdentification: uid };
  if (row?.last_name) {
    person.name.nameIdentifier.push({
      primaryIdentifier: row.last_name,
      ...(row.first_name ? { secondaryIdentifier: row.first_name } : {}),
      nameIdentifierType: 'LEGL',
    });
  }
  if (row?.country) {
    person.geographicAddress = [
      {
        addressType: 'HOME',
        ...(row.address ? { addressLine: [row.address] } : {}),
        ...(row.postcode ? { postCode: row.postcode } : {}),
        ...(row.city ? { townName: row.city } : {}),
        country: row.country,
      },
    ];
    person.countryOfResidence = row.country;
  }
  if (row?.dob) person.dateAndPlaceOfBirth = { dateOfBirth: row.dob, placeOfBirth: row.city ?? '' };
  return { person, complete: person.name.nameIdentifier.length > 0 };
}

/**
 * A customer here as the beneficiary of another customer's transfer: what art. 14(2) asks of a beneficiary, the
 * name (from the verified profile, as for an originator) and the account (the uid); their address and date of
 * birth stay out of the sender's record. `complete` is false for a name-less profile.
 */
export async function customerBeneficiary(
  db: pg.Pool,
  userId: number | string,
): Promise<{ uid: string; person: NaturalPerson; complete: boolean }> {
  const uid = (await uidOfUser(db, userId)) ?? '';
  const { person, complete } = await originatorPerson(db, String(userId), uid);
  return { uid, person: { name: person.name, customerIdentification: uid }, complete };
}

/** The IVMS 101 payload of a withdrawal from `originator` to the saved address `beneficiary`. */
export function buildPayload(
  config: Pick<TravelRuleConfig, 'vasp'>,
  originator: NaturalPerson,
  beneficiary: BeneficiaryParty,
): IvmsPayload {
  const beneficiaryPerson: NaturalPerson = beneficiary.person ?? {
    name: {
      nameIdentifier: beneficiary.beneficiaryName
        ? [{ primaryIdentifier: beneficiary.beneficiaryName, nameIdentifierType: 'LEGL' }]
        : [],
    },
  };
  return {
    originator: {
      originatorPersons: [{ naturalPerson: originator }],
      accountNumber: originator.customerIdentification ? [originator.customerIdentification] : [],
    },
    beneficiary: {
      beneficiaryPersons: [{ naturalPerson: beneficiaryPerson }],
      accountNumber: [beneficiary.address],
    },
    originatingVASP: { originatingVASP: vaspPerson(config.vasp) },
    ...(beneficiary.provider
      ? { beneficiaryVASP: { beneficiaryVASP: vaspPerson(beneficiary.provider) } }
      : {}),
  };
}
