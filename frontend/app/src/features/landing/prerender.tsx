import { MantineProvider } from "@mantine/core";
import { renderToString } from "react-dom/server";
import { StaticRouter } from "react-router";
import { contrastResolver } from "../../app/contrast";
import { theme } from "../../app/providers";
import { LandingPage } from "./routes/LandingPage";

/**
 * The landing page as HTML, for `scripts/prerender.mjs`: the build writes it to
 * dist/home/index.html, which the server answers /home with. It needs no JavaScript (its links
 * are plain links), so visitors see it as soon as the HTML and CSS arrive. The same component
 * renders /home when the app navigates there itself.
 */
export function renderLandingPage(): string {
  return renderToString(
    <MantineProvider theme={theme} forceColorScheme="light" cssVariablesResolver={contrastResolver}>
      <StaticRouter location="/home">
        <LandingPage />
      </StaticRouter>
    </MantineProvider>,
  );
}
