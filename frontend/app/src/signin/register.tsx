import { RegisterPage } from "../features/auth/routes/RegisterPage";
import { mountSignInPage } from "./mount";

mountSignInPage(RegisterPage);
