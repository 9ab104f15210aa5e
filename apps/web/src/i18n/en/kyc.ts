/**
 * Identity verification (docs/kyc.md#screens, #states, #api, #labels): the KYC page, the verification-required
 * modal, and the messages of the KYC and document error codes.
 */
export const kyc = {
  'resource.kyc.profile_incomplete': 'Please complete your profile before identity verification.',
  'resource.kyc.already_verified': 'Your identity is already verified.',
  'resource.kyc.rejected_final': 'Your identity verification was rejected. Please contact support.',
  'resource.kyc.invalid_applicant': 'This verification does not belong to your account.',
  'resource.kyc.provider_unavailable':
    'Identity verification is unavailable right now. Please try again later.',
  'resource.kyc.invalid_redirect_url': 'Invalid return address.',
  'resource.kyc.missing_scan_ref': 'Missing verification reference.',
  'resource.documents.invalid_doc_type': 'Please choose a document type.',
  'resource.documents.invalid_doc_number': 'Invalid document number.',
  'resource.documents.invalid_doc_expire': 'The expiry date must be in the future.',
  'resource.documents.missing_upload': 'Please upload your document',
  'resource.documents.invalid_format': 'Only JPG, JPEG, PNG or PDF files are accepted.',
  'resource.documents.file_too_large': 'Each file must be at most 2 MB.',
  'resource.documents.too_many_files': 'Too many files in one upload.',
  'resource.documents.not_multipart': 'Please upload your document',

  'kyc.page.title': 'Identity verification',
  'kyc.page.intro':
    'Upload an identity document (passport, national ID, driver’s licence or military ID) and a selfie. JPG, JPEG, PNG or PDF, at least 300 dpi, at most 2 MB each. Verification takes 7-10 working days.',
  'kyc.page.widget': 'Identity verification',
  'kyc.page.loading': 'Loading the verification…',
  'kyc.page.toSettings': 'Go to settings',
  'kyc.page.verified': 'Your identity is verified.',
  'kyc.page.sdkFailed': 'The verification widget could not be loaded. Please try again later.',

  'kyc.step.title': 'Verify your identity',
  'kyc.step.comment': 'From our reviewer',
  'kyc.step.next':
    'Your profile is saved. Next, verify your identity to withdraw, trade without limits and order a card. It takes a few minutes.',
  'kyc.step.documents': 'Have one of these documents at hand:',
  'kyc.step.document.passport': 'Passport',
  'kyc.step.document.idCard': 'National ID card',
  'kyc.step.document.drivers': 'Driver’s licence',
  'kyc.step.document.military': 'Military ID',
  'kyc.step.selfie': 'You will also take a selfie with your camera.',
  'kyc.step.start': 'Start verification',

  'kyc.required.title': 'Verification required',
  'kyc.required.body': 'Please verify your identity (KYC) to use this feature.',
  'kyc.required.profileBody':
    'Please complete your profile (gender, date of birth, address, postcode, city and country) before identity verification.',
  'kyc.required.verify': 'Verify identity',
  'kyc.required.profile': 'Complete profile',
  'kyc.required.pending': 'Your identity verification is under review.',
};
