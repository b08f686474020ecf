import { ForgotPasswordPage } from "../features/auth/routes/ForgotPasswordPage";
import { mountSignInPage } from "./mount";

mountSignInPage(ForgotPasswordPage);
