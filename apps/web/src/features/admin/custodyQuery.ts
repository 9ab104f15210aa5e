/** The custody view's query key: every change on the Custody tab refreshes it. */
export const CUSTODY_KEY = ['adminCustody'];
