/** Static pages (landing, legal, FAQ, card marketing). Long texts: paragraphs separated by a blank line. */
export const staticPages = {
  // ── Shared ────────────────────────────────────────────────────────────────
  'legal.toc': 'Contents',
  'legal.backToTop': 'Back to contents',

  // ── Landing page ──────────────────────────────────────────────────────────
  'landing.hero.badge': 'Spot trading · Wallet · Swaps · Euro card',
  'landing.hero.title': 'Trade, hold and spend digital assets from one European account',
  'landing.hero.subtitle':
    'Exchange brings spot trading, a multi-network crypto wallet, instant swaps and a payment card loaded with USDT that spends in euro together in a single place. Operated from Poland under Swiss and Polish law.',
  'landing.hero.register': 'Register',
  'landing.hero.login': 'Login',
  'landing.hero.trade': 'Go to trading',
  'landing.hero.balance': 'View my balance',
  'landing.features.title': 'Everything your digital assets need',
  'landing.features.subtitle': 'One account covers trading, moving, converting and spending your funds.',
  'landing.feature.trading.title': 'Spot trading',
  'landing.feature.trading.body':
    'Live order books and market depth, candlestick charts, recent trades, and a clear view of your open orders and order history.',
  'landing.feature.deposits.title': 'Deposits and withdrawals',
  'landing.feature.deposits.body':
    'Move crypto in and out per currency and per blockchain network, with a full history of every transfer.',
  'landing.feature.beneficiaries.title': 'Saved withdrawal addresses',
  'landing.feature.beneficiaries.body':
    'Keep trusted addresses as beneficiaries. Each new address is activated with a one-time code before it can be used.',
  'landing.feature.swaps.title': 'Swaps',
  'landing.feature.swaps.body':
    'Convert one currency into another in a couple of clicks, without placing an order, and review every swap later.',
  'landing.feature.kyc.title': 'Identity verification',
  'landing.feature.kyc.body':
    'A guided online check with our verification partner unlocks withdrawals, fiat features and the card.',
  'landing.feature.card.title': 'Euro card',
  'landing.feature.card.body':
    'Top up your card with USDT and pay in euro at shops, online and at ATMs. Up to three cards per account.',
  'landing.feature.security.title': 'Security',
  'landing.feature.security.body':
    'Two-factor authentication with an authenticator app, API keys you control, and a log of your devices and sessions.',
  'landing.steps.title': 'How to start',
  'landing.steps.subtitle': 'Four steps from sign-up to your first trade.',
  'landing.step1.title': 'Register',
  'landing.step1.body':
    'Create your account with your legal name, email address, phone number and a password.',
  'landing.step2.title': 'Verify email and phone',
  'landing.step2.body': 'Confirm both with the one-time codes we send you.',
  'landing.step3.title': 'Verify your identity',
  'landing.step3.body': 'Complete your profile and pass the online identity check.',
  'landing.step4.title': 'Deposit and trade',
  'landing.step4.body': 'Fund your wallet with crypto, then trade spot markets or swap currencies.',
  'landing.cta.card.title': 'A European multi-currency account',
  'landing.cta.card.body':
    'See how the euro card works, which chains you can top up from and what the limits are.',
  'landing.cta.card.button': 'Discover the card',
  'landing.cta.faq.title': 'Questions?',
  'landing.cta.faq.body': 'Deposits, verification, account types and security are explained in our FAQ.',
  'landing.cta.faq.button': 'Read the FAQ',

  // ── Terms of use ──────────────────────────────────────────────────────────
  'terms.title': 'Terms of use',
  'terms.intro':
    'These terms govern your use of the Exchange platform and its services. The provider is a company based in Poland. Please read them carefully: by opening an account or continuing to use the services you accept them.',
  'terms.s1.title': 'Execution-only service',
  'terms.s1.body':
    'All orders are carried out on an execution-only basis. The provider gives no investment, legal or tax advice and does not assess whether a transaction suits you; every decision to buy, sell or swap is yours alone.',
  'terms.s2.title': 'Freezing of accounts and refusal of orders',
  'terms.s2.body':
    'The provider may freeze an account or refuse to accept or execute an order, in particular where it suspects a breach of these terms or of the law, or where a regulator or court so requires.',
  'terms.s3.title': 'Fees',
  'terms.s3.body':
    'The fees in force are published on the platform. The provider may change its fees; the new fees apply to orders and transactions placed after the change takes effect.',
  'terms.s4.title': 'Lien and set-off',
  'terms.s4.body':
    'The provider holds a lien over the assets in your account for any amount you owe it and may set such amounts off against your balances.',
  'terms.s5.title': 'Custody of client assets',
  'terms.s5.body':
    "Your assets are held in separate custody for each client and are kept apart from the provider's own assets.",
  'terms.s6.title': 'Anti-money-laundering and know-your-customer checks',
  'terms.s6.body':
    'Anti-money-laundering and know-your-customer rules apply to every client. You must provide the information and documents requested. The documents you supply are archived for up to 10 years.',
  'terms.s7.title': 'Blocking and termination of access',
  'terms.s7.body':
    'The provider may block or end your access to the services at its sole discretion, with or without giving reasons where the law permits.',
  'terms.s8.title': 'Communication',
  'terms.s8.body':
    'Notices are sent to the email address or phone number registered on your account. A message is deemed delivered at the moment it is dispatched. Keep your contact details up to date.',
  'terms.s9.title': 'Airdrops and forks',
  'terms.s9.body':
    'You are responsible for following airdrops, forks and similar events that affect the assets you hold. The provider is not obliged to support or credit any new asset that results from such an event.',
  'terms.s10.title': 'Limitation of liability',
  'terms.s10.body':
    "The provider's total liability towards you is limited to the fees you paid in the 1 month before the event giving rise to the claim, to the extent the law allows.",
  'terms.s11.title': 'Cancellation of orders',
  'terms.s11.body':
    'The provider cannot cancel an order once you have placed it. Cancelling an open order is your own decision and is done through the platform.',
  'terms.s12.title': 'End of the relationship',
  'terms.s12.body':
    'When the relationship ends you must give the provider a whitelisted blockchain address to receive your assets. If no address is delivered within 30 calendar days, the provider may convert the assets into fiat currency.',
  'terms.s13.title': 'United States persons',
  'terms.s13.body':
    'The services are generally not offered to US persons. You must inform the provider 30 days in advance of any change in your status that could make you a US person.',
  'terms.s14.title': 'Complaints',
  'terms.s14.body':
    'Complaints must be submitted within 30 calendar days of the event they relate to, through the contact page, with a description of the issue and any supporting documents.',
  'terms.s15.title': 'External addresses',
  'terms.s15.body':
    'Deposits and withdrawals are only made from and to external addresses that have been verified. Transfers involving unverified addresses may be rejected.',
  'terms.s16.title': 'Business days and holidays',
  'terms.s16.body':
    'Saturdays, Sundays and public holidays in Poland are holidays. Time limits counted in business days do not run on those days.',
  'terms.s17.title': 'Acceptance',
  'terms.s17.body':
    'You accept these terms when you complete onboarding. Continuing to use the services after an update of the terms also counts as acceptance of the updated version.',
  'terms.s18.title': 'Governing law',
  'terms.s18.body':
    'These terms are governed by Swiss and Polish law. Mandatory consumer protection rules of your country of residence remain unaffected.',

  // ── Privacy policy ────────────────────────────────────────────────────────
  'privacy.title': 'Privacy policy',
  'privacy.intro':
    'This policy explains which personal data we process when you use Exchange, why we do it and what rights you have. We follow the EU General Data Protection Regulation (GDPR).',
  'privacy.s1.title': 'Who is responsible',
  'privacy.s1.body':
    'The controller of your personal data is the company operating Exchange, based in Poland. Questions about this policy or your data can be sent to us through the contact page.',
  'privacy.s2.title': 'Your consent',
  'privacy.s2.body':
    'When you first use the platform we ask you to confirm that you have read this policy and agree to be bound by it. Where processing is based on consent you can withdraw it at any time; this does not affect processing carried out before the withdrawal.',
  'privacy.s3.title': 'Data we collect',
  'privacy.s3.body':
    'Account data: name, email address, phone number, password (stored only in hashed form), country, gender, date of birth and postal address.\n\nVerification data: identity and address documents, photos taken during the identity check and, for business accounts, company documents.\n\nTransaction data: balances, deposits, withdrawals, saved addresses, orders, swaps and card transactions.\n\nTechnical data: IP address, device and browser information, login times, and the security log of your devices and sessions.\n\nMessages you send us through the contact form.',
  'privacy.s4.title': 'Why we use your data',
  'privacy.s4.body':
    'To open and run your account, execute your orders, transfers and swaps, and issue and operate your card.\n\nTo verify your identity and meet our anti-money-laundering obligations.\n\nTo protect your account, detect fraud and keep the platform secure.\n\nTo answer your questions and tell you about important changes to the services.',
  'privacy.s5.title': 'Legal bases',
  'privacy.s5.body':
    'We process data because it is needed to perform our contract with you, because the law requires it (for example anti-money-laundering rules), because we have a legitimate interest in keeping the platform secure, or because you have given your consent.',
  'privacy.s6.title': 'Minors',
  'privacy.s6.body':
    'The services are not available to persons under 18. We do not knowingly collect data about minors; if we learn that we have done so, we delete it.',
  'privacy.s7.title': 'Where your data is stored',
  'privacy.s7.body':
    'Your data is stored in Europe. Where a service provider such as our identity-verification partner processes data for us, it does so under a written agreement and with appropriate safeguards.',
  'privacy.s8.title': 'How long we keep it',
  'privacy.s8.body':
    'Client records are kept for 8 years after the end of the relationship and correspondence for 5 years. Identity and verification documents may be archived for up to 10 years where anti-money-laundering law requires it.\n\nOther data is deleted or anonymised once it is no longer needed for the purpose it was collected for.',
  'privacy.s9.title': 'Security and data breaches',
  'privacy.s9.body':
    'We protect your data with technical and organisational measures such as encryption in transit, access controls and two-factor authentication.\n\nIf a personal data breach occurs we notify the competent supervisory authority within 72 hours of becoming aware of it, and we inform you without undue delay when the breach is likely to put your rights at high risk.',
  'privacy.s10.title': 'Your rights',
  'privacy.s10.body':
    'You have the right to access your data, to have it corrected or erased, to restrict or object to its processing, to receive it in a portable format and to withdraw consent. You may also lodge a complaint with a data protection supervisory authority.\n\nSome data cannot be erased while the law requires us to keep it.',
  'privacy.s11.title': 'Cookies and local storage',
  'privacy.s11.body':
    "We use a single session cookie to keep you signed in. Your browser's local storage remembers your theme (light or dark) and your favourite markets. We do not use advertising cookies.",
  'privacy.s12.title': 'Changes to this policy',
  'privacy.s12.body':
    'We may update this policy from time to time. The current version is always available on this page.',
  'privacy.s13.title': 'Contact',
  'privacy.s13.body':
    'To exercise your rights or ask a question about your data, write to us through the contact form.',
  'privacy.contactLink': 'Go to the contact page',

  // ── AML policy ────────────────────────────────────────────────────────────
  'aml.title': 'Anti-money-laundering policy',
  'aml.intro':
    'This policy describes how Exchange prevents money laundering and the financing of terrorism: how we identify clients, assess risk, report suspicious activity and keep records.',
  'aml.glance.title': 'Key time limits and thresholds',
  'aml.glance.item': 'Item',
  'aml.glance.value': 'Value',
  'aml.glance.r1.item': 'Report to the financial intelligence unit',
  'aml.glance.r1.value': 'Within three business hours',
  'aml.glance.r2.item': 'Suspension of a transaction',
  'aml.glance.r2.value': 'Up to 10 business days',
  'aml.glance.r3.item': 'Requested information from a client',
  'aml.glance.r3.value': '1 business day, in any case within 14 business days',
  'aml.glance.r4.item': 'Identification thresholds',
  'aml.glance.r4.value': 'EUR 1,000 and EUR 15,000',
  'aml.glance.r5.item': 'Virtual currency operations reported',
  'aml.glance.r5.value': 'EUR 15 000 or more',
  'aml.glance.r6.item': 'Record keeping',
  'aml.glance.r6.value': 'Client records 8 years, correspondence 5 years',
  'aml.s1.title': 'Definitions',
  'aml.s1.body': 'In this policy the following terms have the meaning given below.',
  'aml.s1.items':
    'Client: a natural or legal person with an account or business relationship with Exchange.\nBeneficial owner: the natural person who ultimately owns or controls a client, in particular by holding 25% plus one share or more.\nPolitically exposed person (PEP): a person entrusted with a prominent public function, their family members and close associates.\nFinancial intelligence unit (FIU): the national authority that receives reports of suspicious transactions.\nVirtual currency: a digital representation of value that can be exchanged, transferred or stored electronically.\nBusiness day: any day other than a Saturday, a Sunday or a Polish public holiday.',
  'aml.s2.title': 'Roles and responsibilities',
  'aml.s2.body':
    'The management board is responsible for this policy and appoints a compliance officer who runs the day-to-day anti-money-laundering work, trains staff and is the contact point for the authorities.\n\nAny change of the officer is notified to the competent authority within 7 calendar days. Every employee must know this policy and report suspicions to the officer.',
  'aml.s3.title': 'Procedures',
  'aml.s3.body':
    'Written internal procedures cover onboarding, monitoring, escalation and reporting. The internal registers of checks and reports are filled in within 3 business days of the event.\n\nElectronic records are backed up at least monthly, and the procedures are reviewed whenever the law or our business changes.',
  'aml.s4.title': 'Customer due diligence',
  'aml.s4.body':
    'Due diligence is applied when a business relationship starts, for occasional transactions of EUR 1,000 or more in virtual currency and EUR 15,000 or more in other cases, and whenever there is a suspicion of money laundering or doubt about data supplied earlier.\n\nIt includes identifying the client and the beneficial owner (holding 25% plus one share or otherwise controlling the client), understanding the purpose of the relationship and monitoring it on an ongoing basis.\n\nEnhanced measures apply to politically exposed persons. PEP status continues for one year after the person leaves office.',
  'aml.s5.title': 'Identification',
  'aml.s5.body':
    'For natural persons we record the full name, date of birth, nationality, address and identity document details. For legal persons we record the name, registration number, registered office, directors and beneficial owners.\n\nRequested information must be provided within 1 business day, and in any case within 14 business days; otherwise the relationship may be refused or ended.',
  'aml.s6.title': 'Identification methods',
  'aml.s6.body':
    'Identification is carried out online through our identity-verification partner or, where documents are submitted directly, on the basis of originals or notary-certified copies.\n\nExtracts from a commercial register must be less than one year old.',
  'aml.s7.title': 'Risk assessment',
  'aml.s7.body':
    'Each client is placed in one of three risk classes: low, average or high, based on factors such as country, type of client, products used, transaction volumes and PEP status.\n\nThe risk profile is reviewed at least yearly, and earlier when something relevant changes. Clients linked to the territories in Annex 4 are treated as high risk.',
  'aml.s8.title': 'Reporting',
  'aml.s8.body':
    'A suspicious transaction is reported to the financial intelligence unit within three business hours of the suspicion arising. The unit replies within 10 working days and may suspend the transaction for up to 10 business days.\n\nVirtual currency operations of EUR 15 000 or more are reported as required by law. Clients are never told that a report has been made.',
  'aml.s9.title': 'Record keeping',
  'aml.s9.body':
    'Client records and transaction data are kept for 8 years and correspondence for 5 years. The internal registers are kept for 5 or 8 years depending on the register concerned.\n\nRecords are stored securely and are backed up at least monthly.',
  'aml.s10.title': 'Annexes',
  'aml.s10.body': 'The following annexes form part of this policy.',
  'aml.s10.items':
    'Annex 1: client questionnaire for natural persons.\nAnnex 2: client questionnaire for legal persons, including the declaration of beneficial owners.\nAnnex 3: indicators of unusual and suspicious transactions.\nAnnex 4: list of about 50 target territories whose clients receive enhanced due diligence; the current list is available from the compliance officer on request.',

  // ── FAQ ───────────────────────────────────────────────────────────────────
  'faq.title': 'Frequently asked questions',
  'faq.subtitle': 'Quick answers about your wallet, your account and verification.',
  'faq.tab.wallet': 'Wallet',
  'faq.tab.general': 'General',
  'faq.tab.verification': 'Account Verification',
  'faq.tab.start': 'Getting Started',
  'faq.more': 'Still need help?',
  'faq.contact': 'Contact us',
  'faq.wallet.q1': 'When will my crypto deposit be credited?',
  'faq.wallet.a1':
    'A deposit is credited after 30 blockchain confirmations. Until then it appears in your history with the status pending.',
  'faq.wallet.q2': 'Why did my deposit address change?',
  'faq.wallet.a2':
    'A new deposit address is generated after each deposit. Your previous addresses remain valid, so funds sent to them still arrive.',
  'faq.wallet.q3': 'How do I send funds to another user?',
  'faq.wallet.a3':
    'You can send funds to another user by entering their email address, phone number or wallet address. To confirm the transfer you need your account password.',
  'faq.wallet.q4': 'Which network should I choose?',
  'faq.wallet.a4':
    'Deposits and withdrawals are made per currency and per blockchain network. Always choose the same network on both sides of a transfer; funds sent over a different network may be lost.',
  'faq.wallet.q5': 'What do I need to withdraw?',
  'faq.wallet.a5':
    'Withdrawals require a verified identity and two-factor authentication with an authenticator app. Withdrawal addresses are saved as beneficiaries and activated with a one-time code.',
  'faq.general.q1': 'Which account types are available?',
  'faq.general.a1':
    'There are two account types: Personal and Business. A Business account adds mass payouts and additional deposit methods.',
  'faq.general.q2': 'How is my account protected?',
  'faq.general.a2':
    'You can enable two-factor authentication with an authenticator app, review a security log of the devices and logins on your account, and restrict access to a whitelist of IP addresses.',
  'faq.general.q3': 'What can I do without verification?',
  'faq.general.a3':
    'Without verification you cannot use cards or make fiat deposits and withdrawals. Verify your identity to unlock every feature.',
  'faq.general.q4': 'Which currency is used as reference?',
  'faq.general.a4':
    'The reference fiat currency is the euro. The card is loaded with USDT and spends in euro.',
  'faq.verification.q1': 'How long does verification take?',
  'faq.verification.a1': 'Verification usually takes 7-10 working days.',
  'faq.verification.q2': 'What does verification cover?',
  'faq.verification.a2':
    'We check your personal details, identity, address, email address and phone number. For business accounts, company documents are checked as well.',
  'faq.verification.q3': 'Which documents prove my identity?',
  'faq.verification.a3': "A passport, a national identity card, a driver's licence or a military ID.",
  'faq.verification.q4': 'Which documents prove my address?',
  'faq.verification.a4':
    'A bank statement, a utility bill, a tax or council tax bill, or a certificate of residence.',
  'faq.verification.q5': 'Which file formats can I upload?',
  'faq.verification.a5':
    'JPG, JPEG, PNG or PDF files with a resolution of at least 300 dpi. Each file may be at most 2 MB.',
  'faq.start.q1': 'How do I create an account?',
  'faq.start.a1':
    'Register with your details as they appear on your legal documents, then confirm your email address and phone number with the codes we send you.',
  'faq.start.q2': 'How do I log in?',
  'faq.start.a2':
    'Enter your email or phone number and your password. A second step follows: a code from your authenticator app if two-factor authentication is enabled, otherwise a one-time code sent to your email or phone.',
  'faq.start.q3': 'How do I verify my identity?',
  'faq.start.a3':
    'Complete your profile in Settings and start the identity check. You will be asked for an identity document and a selfie.',
  'faq.start.q4': 'How do I deposit and trade?',
  'faq.start.a4':
    'Open Deposit/Withdraw, choose a coin and network and send funds to the address shown. Once the deposit is credited you can trade spot markets or swap currencies.',
  'faq.start.q5': 'How do I get the card?',
  'faq.start.a5':
    'Once your identity is verified, open the Card page, apply and follow the steps. You can then top up the card with USDT and spend in euro.',

  // ── Card marketing page ───────────────────────────────────────────────────
  'cardPage.headline': 'European Multi-Currency Account',
  'cardPage.subtitle':
    'A payment card you top up with crypto and spend in euro, wherever cards are accepted. Apply online in minutes.',
  'cardPage.getStarted': 'Get Started',
  'cardPage.applyNow': 'Apply Now',
  'cardPage.chains.title': 'Top up from the chains you already use',
  'cardPage.chain.bitcoin': 'Bitcoin',
  'cardPage.chain.ethereum': 'Ethereum',
  'cardPage.chain.binance': 'Binance',
  'cardPage.chain.usdt': 'USDT',
  'cardPage.chain.tron': 'Tron',
  'cardPage.benefits.title': 'Why choose our card',
  'cardPage.benefit.global.title': 'Global support',
  'cardPage.benefit.global.body': 'Pay in shops and online and withdraw cash at ATMs around the world.',
  'cardPage.benefit.cost.title': 'Low cost',
  'cardPage.benefit.cost.body': 'Transparent fees, and identity verification (KYC) is free of charge.',
  'cardPage.benefit.fast.title': 'Fast transactions',
  'cardPage.benefit.fast.body':
    'Top up with USDT and spend your balance in euro without waiting for bank transfers.',
  'cardPage.benefit.simple.title': 'Simple signup',
  'cardPage.benefit.simple.body': 'Create your account and apply for the card entirely online.',
  'cardPage.steps.title': 'Get your card in four steps',
  'cardPage.step1.title': 'Download the app and create an account',
  'cardPage.step1.body': 'Sign up with your email address and phone number.',
  'cardPage.step2.title': 'Apply for the card',
  'cardPage.step2.body': 'Review your profile and submit your card application.',
  'cardPage.step3.title': 'Submit KYC',
  'cardPage.step3.body': 'Upload your documents and complete the identity check.',
  'cardPage.step4.title': 'Receive your card',
  'cardPage.step4.body': 'Once approved, activate the card and start spending.',
  'cardPage.limits.title': 'Card limits',
  'cardPage.limits.caption': 'All amounts in euro.',
  'cardPage.limits.name': 'Limit',
  'cardPage.limits.amount': 'Amount',
  'cardPage.limits.monthly': 'Monthly transactions',
  'cardPage.limits.monthlyValue': '50000.00 EUR',
  'cardPage.limits.payment': 'Card payment per day',
  'cardPage.limits.paymentValue': '5000.00 EUR',
  'cardPage.limits.atmDaily': 'Daily ATM withdrawal',
  'cardPage.limits.atmDailyValue': '2000.00 EUR',
  'cardPage.limits.atmMin': 'Minimum ATM withdrawal',
  'cardPage.limits.atmMinValue': '10.00 EUR',
  'cardPage.limits.atmMax': 'Maximum per ATM transaction',
  'cardPage.limits.atmMaxValue': '1000.00 EUR',
  'cardPage.apps.title': 'Take your account with you',
  'cardPage.apps.body': 'Our mobile apps are on their way. Until then, everything works in your browser.',
  'cardPage.apps.appStore': 'Coming soon on App Store',
  'cardPage.apps.googlePlay': 'Coming soon on Google Play',
  'cardPage.footer.quickLinks': 'Quick links',
  'cardPage.footer.home': 'Home',
  'cardPage.footer.faq': 'FAQ',
  'cardPage.footer.contact': 'Contact',
  'cardPage.footer.terms': 'Terms',
  'cardPage.footer.community': 'Community',
  'cardPage.footer.communityNote': 'Our community channels are opening soon.',
  'cardPage.footer.telegram': 'Telegram',
  'cardPage.footer.x': 'X',
  'cardPage.footer.linkedin': 'LinkedIn',
  'cardPage.footer.discord': 'Discord',
} as const;

/** A key of the static-pages catalogue. */
export type StaticKey = keyof typeof staticPages;
