import { LoginPage } from "../features/auth/routes/LoginPage";
import { mountSignInPage } from "./mount";

mountSignInPage(LoginPage);
