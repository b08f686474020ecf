import { ResetPasswordPage } from "../features/auth/routes/ResetPasswordPage";
import { mountSignInPage } from "./mount";

mountSignInPage(ResetPasswordPage);
