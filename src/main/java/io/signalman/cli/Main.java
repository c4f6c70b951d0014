package io.signalman.cli;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.Map;

/** {@code signalman serve | check | test | replay | explain | state | data | trial | users | audit | rules}. */
public final class Main {

    static final String USAGE = """
            usage: signalman <command> [options]
              serve    [--host 127.0.0.1] [--port 8080] [--rules rules] [--fixtures replay-fixtures]
                       [--data data] [--admin-token T] [--fsync never|interval|always] [--workers N]
                       [--deadline-ms 2000] [--max-in-flight 256] [--idempotency-window-s 600]
                       [--idempotency-keys 100000] [--idle-timeout 60] [--request-timeout 30]
                       [--max-connections 10000]
                       [--body-limit BYTES] [--admin-port P [--admin-host 127.0.0.1]]
                       [--cluster [--cluster-host 127.0.0.1] [--cluster-port 5701] [--members host:port,...]
                        [--cluster-quorum N (fewer members than N change no rules, users or audit entries; 0: none)]]
                       [--state-retention 7d] [--state-idle-retention 30d] [--state-max-entries 1000000]
                       [--state-jdbc jdbc:postgresql://HOST:PORT/DB (with --cluster; user and password from
                        SIGNALMAN_STATE_JDBC_USER/_PASSWORD or PGUSER/PGPASSWORD)]
                       [--workbench-token T] [--admin-token-name NAME] [--accept-data-loss]
                       [--approvals N (approvals by others a draft needs before activation; 0)]
                       [--notify-webhook URL (a JSON event POSTed on each review request, verdict, activation, trial change)]
                       [--auth-failures-per-minute 20] [--token-hash-memory-kib 65536] [--token-hash-iterations 3]
                       [--oidc-issuer URL --oidc-audience ID --oidc-jwks FILE|https://URL
                        [--oidc-roles-claim roles] [--oidc-name-claim sub] [--oidc-leeway-s 30]]
                       [--audit-key-file FILE (the audit log's HMAC key: outside --data, mode 600, 32+ bytes)]
                       [--bench-endpoints (serves POST /bench/echo for make bench; never in production)]
                       [--rules-git (each activation made here committed into the rules folder's Git work tree)]
                       [--otel-endpoint URL (spans of requests and decisions, OTLP/HTTP, e.g. http://collector:4318;
                        off unless given) [--otel-sample-ratio 1.0]]
                       [BUDGETS] [--max-decision-mb 256] [--max-decision-cpu-ms 2000] [--quarantine-after 3 (0: never)]
              check    [rules-dir] [--format text|json|junit|sarif] [--output FILE] [BUDGETS]
                       (BUDGETS, on serve, check, test, replay and explain: [--max-rule-combinations 100000]
                        [--max-rule-steps 50000000] [--max-pack-steps 500000000] [--check-deadline-s 120])
              test     [rules-dir] [--format text|json|junit|sarif] [--output FILE] [--json (= --format json)] [BUDGETS]
              replay   [--rules DIR] [--baseline DIR] [--report FILE.json] [--accept] [--threads N] [BUDGETS]
                       [--since T] [--until T] [--pack NAME]... [--sample RATE] [--arm live|candidate] [--quiet]
                       [--determinism all|sample (sample: determinism checked on 1 record in 64; --accept: all)]
                       [--members host:port,...] ARCHIVE...   (ARCHIVE: *.jsonl, *.jsonl.gz or a folder)
              explain  <pack> <input.json> [--rules DIR] [--json] [--why-not RULE] [BUDGETS]
              state    export [--data data | --state-jdbc URL] > states.jsonl
              state    import [--data data | --state-jdbc URL] [states.jsonl]   (default: standard input)
              data     verify [--data data] [--rules rules] [--audit-key-file FILE]
                       (checks a data directory, the audit log included; changes nothing)
              trial    start --draft ID --mode shadow|canary [--percent P] [--stop JSON]
                       | show ID | set ID [--mode M] [--percent P] [--stop JSON|null]
                       | promote ID --note N [--accept-golden-changes] | abort ID [--reason R]
                       [--url http://127.0.0.1:8080] [--admin-token T]   (a live trial on a running server)
              users    add NAME --role ROLE[,ROLE] | list | remove NAME | rotate NAME   [--data data]
                       [--audit-key-file FILE]
                       (a data directory no server holds; a new token is printed alone on the last line)
              audit    verify [--data data | --export FILE | --state-jdbc URL] [--audit-key-file FILE]
                       (proves the audit log's chain and MACs unbroken, and --data's log as long as its manifest
                        records; --export FILE: a log as GET /v1/audit?format=jsonl gave it; changes nothing)
                       key [--data data] --audit-key-file FILE   (keys an unkeyed log once, from its next entry on;
                        a directory no server holds; prints the unkeyed entries' head to compare with a kept copy)
              rules    export --revision REV DIR [--data data]   (REV: an activation's number, or a revision's hash
                        or its first 7+ hex digits; DIR: new or empty; the activation history of --data, read only)
            Every serve flag can also be set as SIGNALMAN_<FLAG> (SIGNALMAN_PORT, SIGNALMAN_ADMIN_TOKEN, ...).""";

    private Main() {
    }

    /**
     * One command's lines of {@link #USAGE} (its own line and the flag lines under it), so that
     * every command answers {@code --help} with exactly what the overall usage says about it.
     */
    static String usageOf(String command) {
        StringBuilder sb = new StringBuilder();
        boolean in = false;
        for (String line : USAGE.lines().toList()) {
            if (line.startsWith("  ") && !line.startsWith("   ")) {
                in = line.strip().startsWith(command + " ");
                if (in) {
                    sb.append("usage: signalman ").append(line.strip().replaceFirst("\\s+", " ")).append('\n');
                }
            } else if (in && line.startsWith("   ")) {
                sb.append("         ").append(line.strip()).append('\n');
            } else {
                in = false;
            }
        }
        if (sb.isEmpty()) {
            return null;
        }
        if ("serve".equals(command)) {
            sb.append(USAGE.lines().reduce((x, y) -> y).orElse("")).append('\n');
        }
        return sb.toString().stripTrailing();
    }

    public static void main(String[] argv) {
        int code = run(argv, System.out, System.err, System.getenv());
        if (code != 0 || argv.length == 0 || !"serve".equals(argv[0])) {
            System.exit(code);
        }
    }

    /** Runs a command and returns its exit code; {@code serve} returns once the server is up. */
    static int run(String[] argv, PrintStream out, PrintStream err, Map<String, String> env) {
        if (argv.length == 0 || "--help".equals(argv[0]) || "-h".equals(argv[0])) {
            out.println(USAGE);
            return argv.length == 0 ? 2 : 0;
        }
        String[] rest = Arrays.copyOfRange(argv, 1, argv.length);
        if (Arrays.asList(rest).contains("--help") || Arrays.asList(rest).contains("-h")) {
            String usage = usageOf(argv[0]);
            if (usage != null) {
                out.println(usage);
                return 0;
            }
        }
        try {
            return switch (argv[0]) {
                case "serve" -> ServeCommand.run(rest, out, err, env);
                case "check" -> CheckCommand.run(rest, out, err, env);
                case "test" -> TestCommand.run(rest, out, err, env);
                case "replay" -> ReplayCommand.run(rest, out, err, env);
                case "explain" -> ExplainCommand.run(rest, out, err, env);
                case "state" -> StateCommand.run(rest, System.in, out, err, env);
                case "data" -> DataCommand.run(rest, out, err, env);
                case "trial" -> TrialCommand.run(rest, out, err, env);
                case "users" -> UsersCommand.run(rest, out, err, env);
                case "audit" -> AuditCommand.run(rest, out, err, env);
                case "rules" -> RulesCommand.run(rest, out, err, env);
                default -> throw new Args.UsageException("unknown command \"" + argv[0] + "\"");
            };
        } catch (Args.UsageException e) {
            err.println("signalman: " + e.getMessage());
            err.println(USAGE);
            return 2;
        }
    }
}
