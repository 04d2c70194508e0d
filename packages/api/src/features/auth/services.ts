/** The services the auth feature adds. */
export interface AuthServices {
  /** `LFK_ALLOW_SIGNUP`: whether anyone may open an account. */
  allowSignup: boolean;
}
