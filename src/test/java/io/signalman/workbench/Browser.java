package io.signalman.workbench;

import io.signalman.http.TestServer;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's chromium, headless, driven through Debian's chromedriver over W3C WebDriver. The paths
 * are given, so Selenium Manager never looks for (or downloads) a driver or a browser; the
 * profile is a fresh temporary folder, and nothing is fetched from the network by the browser
 * itself (no sync, no component updates, no background requests).
 *
 * <p>A test class's browser, like its {@link TestServer}: opened before the class's first test,
 * once the server has started (it is registered after the server), and closed after its last.
 *
 * <pre>{@code
 * @RegisterExtension
 * @Order(2)
 * static final Browser browser = Browser.of(server);
 * }</pre>
 */
final class Browser implements BeforeAllCallback, AfterAllCallback {

    static final String CHROMIUM = "/usr/bin/chromium";
    static final String CHROMEDRIVER = "/usr/bin/chromedriver";

    /** The driver, from before the class's first test. */
    ChromeDriver driver;
    private ChromeDriverService service;
    private final TestServer server;
    private final Path screenshots;

    /**
     * The browser of the class whose server is {@code server}: its profile in the server's folder, its
     * screenshots in {@code target/workbench} (or where {@code -Dworkbench.screenshots} says).
     */
    static Browser of(TestServer server) {
        return new Browser(server, Path.of(System.getProperty("workbench.screenshots", "target/workbench")));
    }

    private Browser(TestServer server, Path screenshots) {
        this.server = server;
        this.screenshots = screenshots;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        Path profile = server.dir().resolve("profile");
        if (!new File(CHROMIUM).canExecute() || !new File(CHROMEDRIVER).canExecute()) {
            throw new AssertionError("the browser test needs " + CHROMIUM + " and " + CHROMEDRIVER
                    + ": apt-get install -y chromium chromium-driver (make test does it when they are missing)");
        }
        System.setProperty("webdriver.chrome.driver", CHROMEDRIVER);
        service = new ChromeDriverService.Builder().usingDriverExecutable(new File(CHROMEDRIVER)).usingAnyFreePort()
                .withLogOutput(java.io.OutputStream.nullOutputStream()).build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--user-data-dir=" + profile.toAbsolutePath(), "--window-size=1280,1000");
        options.setCapability("goog:loggingPrefs", Map.of("browser", "ALL"));
        driver = new ChromeDriver(service, options);
    }

    <T> T waitFor(String what, Function<WebDriver, T> condition) {
        try {
            return new WebDriverWait(driver, Duration.ofSeconds(60)).withMessage(what)
                    .ignoring(org.openqa.selenium.StaleElementReferenceException.class).until(condition);
        } catch (org.openqa.selenium.TimeoutException e) {
            shot("failure-" + what.replaceAll("[^A-Za-z0-9]+", "-"));
            throw e;
        }
    }

    /**
     * Clicks once the element is shown and enabled; a form redrawn meanwhile is found again (the
     * wait ignores stale elements, and the click is inside it).
     */
    void click(By by) {
        waitFor(by + " to be clickable", d -> {
            WebElement e = d.findElement(by);
            if (!e.isDisplayed() || !e.isEnabled()) {
                return null;
            }
            e.click();
            return true;
        });
    }

    /** Waits until the element's text contains {@code text}, and returns the element. */
    WebElement waitForText(By by, String text) {
        return waitFor(by + " to say \"" + text + "\"", d -> d.findElements(by).stream()
                .filter(e -> e.getText().contains(text)).findFirst().orElse(null));
    }

    Object js(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    void shot(String name) {
        try {
            Files.createDirectories(screenshots);
            Files.write(screenshots.resolve(name + ".png"), driver.getScreenshotAs(OutputType.BYTES));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        try {
            if (driver != null) {
                driver.quit();
            }
        } finally {
            if (service != null) {
                service.stop();
            }
        }
    }
}
