/**
 * Business accounts (issue 31, part 3): the account type at registration and in the profile, the Company section
 * of settings, and the messages of the company error codes.
 */
export const company = {
  'identity.user.invalid_account_type': 'Please choose Personal or Business.',
  'resource.company.personal_account': 'Only a business account holds a company.',
  'resource.company.not_found': 'Please enter your company first.',
  'resource.company.not_editable': 'Your company is under review or verified and can no longer be changed.',
  'resource.company.invalid_name': 'Enter the company name (2-120 characters).',
  'resource.company.invalid_registration_number':
    'Enter the registration number (2-40 letters, digits, spaces, dots, slashes or hyphens).',
  'resource.company.invalid_country':
    'Enter the country of registration as three capital letters (e.g. DEU).',
  'resource.company.invalid_address': 'Enter the registered address (5-200 characters).',
  'resource.company.invalid_representatives': 'List between 1 and 20 people of the company.',
  'resource.company.invalid_representative_name': 'Enter the full name (2-80 characters).',
  'resource.company.invalid_representative_role': 'Choose a role.',
  'resource.company.invalid_ownership': 'Enter a share from 0 to 100 %, with at most 4 decimals.',
  'resource.company.ownership_over_100': 'The ownership shares add up to more than 100 %.',
  'resource.company.owner_not_beneficial':
    'Someone owning more than 25 % must be listed as a beneficial owner.',
  'resource.company.beneficial_owner_share': 'A beneficial owner owns more than 25 % of the company.',
  'resource.company.representative_missing': 'List a director or representative who acts for the company.',
  'resource.company.register_extract_invalid_date': 'Enter the issue date of the extract.',
  'resource.company.register_extract_future_date': 'The issue date cannot be in the future.',
  'resource.company.register_extract_outdated':
    'The commercial register extract must be less than one year old. Please upload a recent one.',
  'resource.company.register_extract_missing': 'Please upload the commercial register extract.',
  'resource.company.rejected_final': 'Your company verification was rejected. Please contact support.',

  'identity.register.accountType': 'Account type',
  'identity.register.accountType.personal': 'Personal',
  'identity.register.accountType.business': 'Business',
  'identity.profile.accountType': 'Account type',
  'identity.profile.accountType.personal': 'Personal',
  'identity.profile.accountType.business': 'Business',

  'company.title': 'Company',
  'company.intro':
    'A business account is verified with its company: the company details, the people who act for and own it (everyone owning more than 25 % as a beneficial owner), a commercial register extract less than one year old, and your own identity as its representative.',
  'company.name': 'Company name',
  'company.registrationNumber': 'Registration number',
  'company.country': 'Country of registration (ISO alpha-3)',
  'company.address': 'Registered address',
  'company.people': 'Representatives and owners',
  'company.person.name': 'Full name',
  'company.person.role': 'Role',
  'company.person.ownership': 'Ownership %',
  'company.person.add': 'Add a person',
  'company.person.remove': 'Remove',
  'company.role.director': 'Director',
  'company.role.representative': 'Representative',
  'company.role.shareholder': 'Shareholder',
  'company.role.ubo': 'Beneficial owner',
  'company.save': 'Save company',
  'company.saved': 'Company saved.',
  'company.extract': 'Commercial register extract',
  'company.extract.issuedOn': 'Issue date',
  'company.extract.file': 'Extract (JPG, PNG or PDF, at most 2 MB)',
  'company.extract.upload': 'Upload extract',
  'company.extract.uploaded': 'Extract uploaded.',
  'company.extract.item': 'Register extract issued {{date}}',
  'company.submit': 'Submit for verification',
  'company.submitted': 'Your company was submitted for verification.',
  'company.state.draft': 'Not submitted',
  'company.state.pending': 'Under review',
  'company.state.onhold': 'Under review',
  'company.state.retry': 'Correction needed',
  'company.state.rejected': 'Rejected',
  'company.state.verified': 'Verified',
  'company.identityNote':
    'Your own identity as the company’s representative is verified under Profile. Level 3 needs both.',
} as const;
