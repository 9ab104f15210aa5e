import { randomBytes } from 'node:crypto';
import {
  allowedIdTypes,
  CARD_ERRORS,
  CARD_IMAGE_MAX_BYTES,
  type CardAudit,
  type CardDocumentType,
  type CardHolderState,
  type CheckDocumentResult,
  type CreateCardholderInput,
  type HolderStatus,
  requiredDocuments,
} from '@exchange/shared';
import type { IssuerKyc } from '../../adapters/card-issuer/port.ts';
import { AppError, invalid, notFound } from '../../http/errors.ts';
import type { UploadedFile } from '../../http/multipart.ts';
import { sniffDocumentType } from '../../http/multipart.ts';
import { decrypt, openBytes, sealBytes } from '../identity/crypto.ts';
import type { UserRecord } from '../identity/users-repository.ts';
import { type CardContext, idNumberHash, sealIdNumber, viaIssuer } from './context.ts';
import {
  type DocumentInfo,
  documentImage,
  documentsWithContent,
  holderDocuments,
  putDocument,
  setDocumentIssuerToken,
} from './holder-documents-repository.ts';
import { confirmedPhone, latestProfile } from './member-repository.ts';
import { holderState } from './presenters.ts';
import { findHolder, type HolderRow, idNumberTaken, insertHolder, setHolderStatus } from './repository.ts';

/** Review states in which the holder's documents can no longer change. */
const LOCKED: HolderStatus[] = ['under_review', 'activation_successful'];

/** The issuer's user token of one of our users (ours to choose, so a retried creation finds the same user). */
export const issuerUserToken = (uid: string) => `usr_${uid.toLowerCase()}`;

/**
 * The card holder: the application (document number and type), the document images and the selfie, the
 * review at the issuer, and the state the card wizard is built from (docs/cards.md#data, #states).
 */
export class CardHolders {
  constructor(private readonly ctx: CardContext) {}

  /** `GET /account/cardholder/check_document`: may this country apply, and with which documents. */
  checkDocument(country: string): CheckDocumentResult {
    const idTypes = allowedIdTypes(country);
    return { country, allowed: idTypes.length > 0, id_types: idTypes };
  }

  /**
   * `POST /account/cardholder`: needs level 3, a country that may apply, an id type the country allows, no
   * holder yet and a document number no other holder has. The names are the user's profile's; the issuer's
   * user is created first, so a refusal or an issuer failure leaves nothing behind here.
   */
  async create(user: UserRecord, input: CreateCardholderInput): Promise<CardHolderState> {
    if (user.level < 3) throw new AppError(403, [CARD_ERRORS.levelRequired]);
    const idTypes = allowedIdTypes(input.country);
    if (idTypes.length === 0) throw invalid(CARD_ERRORS.countryNotAllowed);
    if (!idTypes.includes(input.id_type)) throw invalid(CARD_ERRORS.idTypeInvalid);
    return this.ctx.mutex.run(user.id, async () => {
      const db = this.ctx.db;
      if (await findHolder(db, user.id)) throw invalid(CARD_ERRORS.cardholderExists);
      if (await idNumberTaken(db, idNumberHash(this.ctx.keys, input.id_no)))
        throw invalid(CARD_ERRORS.idnoExists);
      const profile = await latestProfile(db, user.id);
      const phone = await confirmedPhone(db, user.id);
      const token = issuerUserToken(user.uid);
      const names = { first_name: profile?.first_name ?? '', last_name: profile?.last_name ?? '' };
      await viaIssuer(this.ctx, (issuer) =>
        issuer.createUser({
          token,
          ...names,
          email: user.email,
          phone,
          address1: profile?.address ?? undefined,
          city: profile?.city ?? undefined,
          postal_code: profile?.postcode ?? undefined,
          country: input.country,
          identifications: [
            { type: input.id_type === 'passport' ? 'PASSPORT' : 'NAT_ID', value: input.id_no },
          ],
        }),
      );
      try {
        const holder = await insertHolder(db, {
          user_id: user.id,
          issuer_user_token: token,
          ...names,
          country: input.country,
          id_type: input.id_type,
          ...sealIdNumber(this.ctx.keys, input.id_no),
        });
        return this.state(holder, []);
      } catch (err) {
        if ((err as { code?: string }).code !== '23505') throw err;
        const constraint = String((err as { constraint?: string }).constraint ?? '');
        throw invalid(constraint.includes('id_no') ? CARD_ERRORS.idnoExists : CARD_ERRORS.cardholderExists);
      }
    });
  }

  /**
   * `POST /account/upload_document`: one image (JPEG or PNG by its content, under 10 MB) of a type the
   * holder's id type needs, or the selfie; replaces the previous image of that type. Refused once under
   * review or approved.
   */
  async upload(user: UserRecord, docType: CardDocumentType, file: UploadedFile | undefined) {
    return this.ctx.mutex.run(user.id, async () => {
      const holder = await this.holder(user);
      if (LOCKED.includes(holder.status)) throw invalid(CARD_ERRORS.holderLocked);
      if (docType !== 'selfie' && !requiredDocuments(holder.id_type).includes(docType))
        throw invalid(CARD_ERRORS.documentTypeInvalid);
      if (!file || file.content.length === 0)
        throw invalid(docType === 'selfie' ? CARD_ERRORS.selfieRequired : CARD_ERRORS.documentRequired);
      if (file.truncated || file.content.length >= CARD_IMAGE_MAX_BYTES)
        throw invalid(CARD_ERRORS.documentTooLarge);
      const mimeType = sniffDocumentType(file.content);
      if (mimeType !== 'image/jpeg' && mimeType !== 'image/png')
        throw invalid(CARD_ERRORS.documentFormatInvalid);
      await putDocument(this.ctx.db, holder.id, {
        docType,
        mimeType,
        sizeBytes: file.content.length,
        sealed: sealBytes(this.ctx.keys.encryptionKey, file.content),
      });
      return this.state(holder, await holderDocuments(this.ctx.db, holder.id));
    });
  }

  /**
   * `POST /account/cardholder_document`: sends the id type's images and the selfie to the issuer and asks for
   * its review; the holder is then under review (also when resubmitting after a failed review).
   */
  async submit(user: UserRecord): Promise<CardHolderState> {
    return this.ctx.mutex.run(user.id, async () => {
      const holder = await this.holder(user);
      if (LOCKED.includes(holder.status)) throw invalid(CARD_ERRORS.holderLocked);
      const documents = await documentsWithContent(this.ctx.db, holder.id);
      const has = (type: string) => documents.some((d) => d.doc_type === type);
      if (!requiredDocuments(holder.id_type).every(has)) throw invalid(CARD_ERRORS.documentRequired);
      if (!has('selfie')) throw invalid(CARD_ERRORS.selfieRequired);
      const sent = documents.filter(
        (d) => d.doc_type === 'selfie' || requiredDocuments(holder.id_type).includes(d.doc_type),
      );
      for (const d of sent) {
        const filed = await viaIssuer(this.ctx, (issuer) =>
          issuer.uploadDocument(holder.issuer_user_token, {
            doc_type: d.doc_type,
            mime_type: d.mime_type,
            content: openBytes(this.ctx.keys.encryptionKey, d.sealed),
          }),
        );
        if (filed) await setDocumentIssuerToken(this.ctx.db, holder.id, d.doc_type, filed.token);
      }
      const kyc = await viaIssuer(this.ctx, (issuer) =>
        issuer.requestKyc({
          token: `kyc_${randomBytes(12).toString('hex')}`,
          user_token: holder.issuer_user_token,
        }),
      );
      const updated = await setHolderStatus(this.ctx.db, holder.id, 'under_review', {
        kycToken: kyc.token,
        from: [holder.status],
      });
      if (!updated) throw invalid(CARD_ERRORS.holderLocked);
      // A real issuer may decide at once; the simulator's reviewer answers later by webhook.
      const decided = kycDecision(kyc.result);
      const final = decided
        ? ((await setHolderStatus(this.ctx.db, holder.id, decided.status, {
            description: decided.description,
            from: ['under_review'],
          })) ?? updated)
        : updated;
      return this.state(final, await holderDocuments(this.ctx.db, holder.id));
    });
  }

  /** `GET /account/cardholder_details`. */
  async details(user: UserRecord): Promise<CardHolderState> {
    const holder = await this.holder(user);
    return this.state(holder, await holderDocuments(this.ctx.db, holder.id));
  }

  /** `GET /account/card_audit`. */
  async audit(user: UserRecord): Promise<CardAudit> {
    const holder = await this.holder(user);
    return { status: holder.status, description: holder.description };
  }

  /** `GET /account/cardholder/documents/:doc_type`: the owner's own image. */
  async image(user: UserRecord, docType: CardDocumentType): Promise<{ content: Buffer; mimeType: string }> {
    const found = await documentImage(this.ctx.db, user.id, docType);
    const content = found ? openBytes(this.ctx.keys.encryptionKey, found.sealed) : undefined;
    const mimeType = content ? sniffDocumentType(content) : null;
    if (!content || !mimeType) throw notFound();
    return { content, mimeType };
  }

  /** The holder as the card wizard shows it, with the document number opened for its owner. */
  private state(holder: HolderRow, documents: DocumentInfo[]): CardHolderState {
    return holderState(holder, decrypt(this.ctx.keys, holder.id_no_sealed), documents);
  }

  private async holder(user: UserRecord): Promise<HolderRow> {
    const holder = await findHolder(this.ctx.db, user.id);
    if (!holder) throw new AppError(404, [CARD_ERRORS.holderNotFound]);
    return holder;
  }
}

/** The holder status an issuer's KYC result means, or null while it is pending. */
export function kycDecision(
  result: IssuerKyc['result'],
): { status: HolderStatus; description: string | null } | null {
  if (result.status === 'success') return { status: 'activation_successful', description: null };
  if (result.status !== 'failure') return null;
  const code = result.codes?.[0];
  return {
    status: code?.code === 'INCOMPLETE_INFORMATION' ? 'incomplete_information' : 'rejection',
    description: code?.message?.slice(0, 500) ?? null,
  };
}
