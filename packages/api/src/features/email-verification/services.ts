/** The services email verification adds. */
export interface EmailVerificationServices {
  /** `LFK_VERIFY_RESEND_INTERVAL`: least time between two verification emails for one form. */
  verifyResendIntervalMs: number;
}
