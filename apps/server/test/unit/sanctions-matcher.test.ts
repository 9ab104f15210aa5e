import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { DEMO_SANCTIONS_LIST } from '../../src/modules/compliance/sanctions/import.ts';
import { jaroWinkler, NameIndex, nameScore } from '../../src/modules/compliance/sanctions/matcher.ts';
import { nameTokens } from '../../src/modules/compliance/sanctions/normalise.ts';
import {
  readSanctionsList,
  type SanctionsEntity,
  SanctionsFileError,
} from '../../src/modules/compliance/sanctions/xml.ts';

const THRESHOLD = 88;

describe('name normalisation', () => {
  it('strips diacritics, case and punctuation, and transliterates Cyrillic and Greek', () => {
    expect(nameTokens('  Márta  ÑOÑEZ-Ficticia ')).toEqual(['marta', 'nonez', 'ficticia']);
    expect(nameTokens("O'Brien, Seán")).toEqual(['obrien', 'sean']);
    expect(nameTokens('Борислав Фиктивенко')).toEqual(nameTokens('Borislav Fictivenko'.replace('c', 'k')));
    expect(nameTokens('Νικόλαος Πλασματόπουλος')).toEqual(nameTokens('Nikolaos Plasmatopoulos'));
    expect(nameTokens('Straße Łódź Ørsted')).toEqual(['strase', 'lodz', 'orsted']);
  });

  it('folds the usual romanisations of one name together', () => {
    expect(nameTokens('Aleksey Yusupov')).toEqual(nameTokens('Alexei Jusupov'));
    expect(nameTokens('Mikhail')).toEqual(nameTokens('Michail'));
  });
});

describe('Jaro-Winkler', () => {
  it('is 1 for equal strings, 0 for nothing in common, and known values in between', () => {
    expect(jaroWinkler('martha', 'martha')).toBe(1);
    expect(jaroWinkler('abc', 'xyz')).toBe(0);
    // The textbook examples.
    expect(jaroWinkler('martha', 'marhta')).toBeCloseTo(0.9611, 4);
    expect(jaroWinkler('dwayne', 'duane')).toBeCloseTo(0.84, 2);
    expect(jaroWinkler('dixon', 'dicksonx')).toBeCloseTo(0.8133, 4);
  });
});

describe('name score', () => {
  it('leaves legal forms out', () => {
    expect(
      nameScore('ACME SHADOW HOLDINGS AND PARTNERS LIMITED', 'Acme Shadow Holdings & Partners Ltd'),
    ).toBe(100);
  });

  it('does not depend on word order', () => {
    expect(nameScore('Fictivenko Borislav', 'Borislav Fictivenko')).toBe(100);
    expect(nameScore('FICTIVENKO, Borislav', 'borislav fictivenko')).toBe(100);
  });

  it('ignores diacritics and transliterates Cyrillic and Greek', () => {
    expect(nameScore('Marta Nonez Ficticia', 'Márta Ñoñez Ficticia')).toBe(100);
    expect(nameScore('Borislav Fiktivenko', 'Борислав Фиктивенко')).toBe(100);
    expect(nameScore('Nikolaos Plasmatopoulos', 'Νικόλαος Πλασματόπουλος')).toBe(100);
  });

  it('forgives a typo and a missing middle name, above the threshold', () => {
    expect(nameScore('Borislaw Fictivenko', 'Borislav Fictivenko')).toBeGreaterThanOrEqual(THRESHOLD);
    expect(nameScore('Yevgeny Testaryov', 'Yevgeny Nullovich Testaryov')).toBe(98);
    expect(nameScore('Evgeni Testarev', 'Yevgeny Nullovich Testaryov')).toBeGreaterThanOrEqual(THRESHOLD);
  });

  it('scores a near miss below the threshold', () => {
    const near = nameScore('Borislav Fikus', 'Borislav Fictivenko');
    expect(near).toBeGreaterThan(60);
    expect(near).toBeLessThan(THRESHOLD);
    expect(nameScore('Marta Nowak', 'Márta Ñoñez Ficticia')).toBeLessThan(THRESHOLD);
    // One given name alone does not match a full name.
    expect(nameScore('Borislav', 'Borislav Fictivenko')).toBeLessThan(THRESHOLD);
    expect(nameScore('Anna Kowalska', 'Borislav Fictivenko')).toBeLessThan(50);
    expect(nameScore('', 'Borislav Fictivenko')).toBe(0);
  });
});

describe('the demo list', () => {
  async function demoEntities(): Promise<SanctionsEntity[]> {
    const entities: SanctionsEntity[] = [];
    const text = await readFile(DEMO_SANCTIONS_LIST, 'utf8');
    // Fed in small pieces: tags, attributes and multi-byte letters cut across chunks.
    const bytes = Buffer.from(text);
    async function* chunks() {
      for (let i = 0; i < bytes.length; i += 7) yield bytes.subarray(i, i + 7);
    }
    const result = await readSanctionsList(chunks(), (e) => entities.push(e));
    expect(result).toEqual({ generationDate: '2026-11-01T10:00:00.000+01:00', entities: 5 });
    return entities;
  }

  it('is read in chunks into its entities, names, regulation, birth dates and citizenships', async () => {
    const [first, , third, company] = await demoEntities();
    expect(first).toEqual({
      logicalId: '900101',
      euReference: 'EU.DEMO.1',
      subjectType: 'person',
      regulation: 'DEMO 2026/9001 (OJ L 1)',
      names: [
        { wholeName: 'Borislav Fictivenko', function: 'Director of the Imaginary Agency' },
        { wholeName: 'Борислав Фиктивенко', function: null },
      ],
      birthdates: ['1970-01-01'],
      citizenships: ['XX'],
    });
    expect(third?.birthdates).toEqual(['1965']);
    expect(third?.citizenships).toEqual([]);
    expect(company?.subjectType).toBe('enterprise');
    expect(company?.names[0]?.wholeName).toBe('Acme Shadow Holdings & Partners Ltd');
  });

  it('indexes names and finds the entry whatever the spelling, best first', async () => {
    const entities = await demoEntities();
    const index = new NameIndex(
      entities.flatMap((e, i) => e.names.map((n) => ({ entryId: i + 1, wholeName: n.wholeName }))),
    );
    expect(index.size).toBe(8);
    expect(index.match('FIKTIVENKO Borislav', THRESHOLD)).toMatchObject([{ entryId: 1, score: 100 }]);
    expect(index.match('Акме Шэдоу Холдингс', THRESHOLD)).toMatchObject([{ entryId: 4 }]);
    expect(index.match('Bogdan Fiktiwski', THRESHOLD)).toEqual([]);
    expect(index.match('Jane Doe', THRESHOLD)).toEqual([]);
  });

  it('refuses a file that is not a list', async () => {
    const read = (xml: string) => readSanctionsList([xml], () => {});
    await expect(read('<html><body/></html>')).rejects.toThrow(SanctionsFileError);
    await expect(read('<export><sanctionEntity logicalId="1">')).rejects.toThrow(SanctionsFileError);
    await expect(read('not xml')).rejects.toThrow(SanctionsFileError);
    const latin1 = readSanctionsList([Buffer.from([0x3c, 0x65, 0x78, 0xe9, 0x3e])], () => {});
    await expect(latin1).rejects.toThrow('not UTF-8');
  });
});
