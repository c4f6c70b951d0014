package io.signalman.workbench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.BundleFiles;
import io.signalman.engine.Engine;
import io.signalman.engine.RuleBundle;
import io.signalman.http.Api;
import io.signalman.decisions.Decisions;
import io.signalman.json.Json;
import io.signalman.people.People;
import io.signalman.people.Principal;
import io.signalman.people.Role;
import io.signalman.scenario.ScenarioRunner;
import io.vertx.core.WorkerExecutor;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.StaticHandler;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * The analysts' workbench at {@code /workbench/}: static pages (plain HTML and JavaScript modules
 * from the jar, CodeMirror and Mermaid from their WebJars) and their JSON API under
 * {@code /workbench/api/}. Everything it does is something the CLI does too, through the same
 * code: compile and lint ({@code check}), explain, replay, the reload gate. Handlers run on the
 * event loop and only route; compiling, replaying and file I/O run on the
 * {@code signalman-workbench} worker pool, apart from the server's decision workers.
 *
 * <p>NOTE: longer than most classes here, because the whole API is routed in one place so that
 * it reads as one table; the handlers below it are each a few lines over the pieces that do the
 * work (drafts, checks, impact, activations, the views).
 */
public final class Workbench implements io.signalman.http.ApiModule {

    static final String PREFIX = "/workbench";
    private static final String API = PREFIX + "/api";
    /** A draft file may be 256 KiB; its JSON envelope adds escaping. */
    private static final long WRITE_BODY_LIMIT = 2L * Drafts.MAX_FILE_BYTES;

    private static final com.fasterxml.jackson.databind.ObjectMapper BODIES = new com.fasterxml.jackson.databind.ObjectMapper(
            com.fasterxml.jackson.core.JsonFactory.builder().streamReadConstraints(com.fasterxml.jackson.core.StreamReadConstraints
                    .builder().maxStringLength((int) WRITE_BODY_LIMIT).maxNestingDepth(64).build()).build());

    private final Engine engine;
    private final Decisions decisions;
    private final WorkbenchOptions options;
    private final Path fixtures;
    private final Checks checks;
    private final Drafts drafts;
    private final Coverage coverage;
    private final Impact impact;
    private final Activations activations;
    private final DraftHandlers draftHandlers;
    private final LastFired lastFired;
    private final DecisionTail tail;
    private final DecisionSearch search;
    private final FireCounts fired;
    private final People people;
    private final TrialHooks trialHooks;
    private final StoppedRevisions stopped;
    private final Inbox inbox;
    private final Events events;
    private final RecentTraffic recent;
    private volatile java.util.function.Function<String, ArrayNode> members;
    private volatile ClusterTraffic traffic;
    /** The live rules with counts of their own, for decisions made only to be looked at; per revision. */
    private volatile RuleBundle liveApart;

    /**
     * The workbench over {@code control}: a single node's data directory, or the cluster's control
     * plane (drafts, kept revisions and activations every member shares).
     */
    public Workbench(Decisions decisions, Path fixtures, Path data, Path decisionLog, WorkbenchOptions options,
                     io.signalman.control.ControlStore control, People people) {
        this.engine = decisions.engine();
        this.people = people;
        this.checks = new Checks(engine.newCompiler());
        this.decisions = decisions;
        this.options = options;
        this.fixtures = fixtures;
        Revisions revisions = new Revisions(control.revisions());
        this.drafts = new Drafts(control.drafts(), revisions);
        this.coverage = new Coverage(fixtures);
        this.impact = new Impact(coverage, decisionLog);
        this.activations = new Activations(engine, fixtures, checks, new ActivationLog(control.journal(
                io.signalman.control.ControlStore.ACTIVATIONS), revisions), people, control.shared(), control.node());
        this.recent = new RecentTraffic(decisionLog);
        activations.recentTraffic(recent);
        FourEyes fourEyes = new FourEyes(people, drafts);
        this.stopped = new StoppedRevisions(data);
        this.draftHandlers = new DraftHandlers(engine, drafts, new DraftCheck(checks, stopped), activations, people, fourEyes);
        draftHandlers.impactSeen(impact::seen);
        this.lastFired = new LastFired(decisionLog);
        this.fired = new FireCounts();
        decisions.tap(fired::record);
        this.tail = new DecisionTail(decisions);
        this.search = new DecisionSearch(decisionLog);
        this.trialHooks = new TrialHooks(engine, drafts, activations, fourEyes);
        this.inbox = new Inbox(drafts, fourEyes, draftHandlers::live);
        this.events = new Events(people.audit());
        drafts.onChange(events::draft);
        decisions.tap(lastFired::record);
        decisions.breaches().onQuarantine(new Quarantine(engine, activations)::apply);
    }

    /**
     * In a cluster: how an activation's answer lists the members serving its revision ({@code members}),
     * waiting for them a bounded time. Alone, activations answer without the list.
     */
    public Workbench withMembers(java.util.function.Function<String, ArrayNode> members) {
        this.members = members;
        return this;
    }

    /**
     * {@code --rules-git}: every activation this node makes from now on is committed into the Git
     * work tree {@code repo} of the rules folder ({@link RulesHistory}).
     */
    public Workbench withRulesGit(io.signalman.rulesgit.RulesRepository repo) {
        activations.history(new RulesHistory(repo));
        return this;
    }

    /**
     * In a cluster: live decisions and impact cover every member's decision log, asked over the
     * event bus ({@link ClusterTraffic}); this member answers the others' questions from now on.
     */
    public Workbench withPeers(io.signalman.cluster.Peers peers, Path decisionLog) {
        this.traffic = new ClusterTraffic(peers, search, decisionLog);
        impact.withTraffic(traffic);
        recent.cluster(traffic);
        return this;
    }

    private ObjectNode liveFile(String path) {
        RuleBundle live = engine.bundle();
        if (path == null || !live.files().paths().contains(path)) {
            throw new WorkbenchException(404, "unknown_file", "the live rules have no file \"" + (path == null ? ""
                    : path.length() > 80 ? path.substring(0, 80) : path) + "\"");
        }
        return Json.object().put("path", path).put("revision", live.revision()).put("read_only", true)
                .put("text", live.files().text(path).orElse(""));
    }

    /** A draft as shown, with its last impact run (marked stale once the content changed). */
    private ObjectNode withImpact(ObjectNode draft) {
        ObjectNode last = impact.last(draft.path("id").asText(), draft.path("content_hash").asText());
        draft.set("impact", last);
        return draft;
    }

    /** An activation's record, with the members that serve its revision when in a cluster. */
    private ObjectNode withMembers(ObjectNode rec) {
        java.util.function.Function<String, ArrayNode> m = members;
        if (m != null && rec.hasNonNull("new_revision")) {
            ObjectNode out = rec.deepCopy();
            out.set("members", m.apply(rec.get("new_revision").asText()));
            return out;
        }
        return rec;
    }

    /** The running trials, for an operator's inbox. */
    public Workbench withRunningTrials(java.util.function.Supplier<JsonNode> running) {
        inbox.trials(running);
        events.trials(running);
        draftHandlers.runningTrials(running);
        return this;
    }

    /** Where a live trial takes its candidate from: the workbench's drafts. */
    public io.signalman.trials.DraftSource trialDrafts() {
        return trialHooks;
    }

    /** How a live trial's candidate goes live: the workbench's activation, gate and record. */
    public io.signalman.trials.Promoter trialPromoter() {
        return trialHooks;
    }

    /** Mounts the pages and the API on {@code router}; {@code api} is the listener's admin check. */
    @Override
    public void routes(Router router, Api api) {
        WorkerExecutor workers = api.vertx().createSharedWorkerExecutor("signalman-workbench", 2);
        Access access = new Access(api);
        BodyHandler body = BodyHandler.create(false).setBodyLimit(WRITE_BODY_LIMIT);
        router.route(PREFIX + "/*").handler(Access::headers);
        // Vert.x matches "/workbench" and "/workbench/" alike: only the bare one is redirected.
        router.get(PREFIX).handler(ctx -> {
            if (ctx.request().path().equals(PREFIX)) {
                ctx.redirect(PREFIX + "/");
            } else {
                ctx.next();
            }
        });

        router.get(API + "/overview").handler(access::read).handler(ctx -> work(ctx, workers, 200, this::overview));
        router.get(API + "/rules").handler(access::read).handler(ctx -> work(ctx, workers, 200, this::rules));
        router.get(API + "/fsm").handler(access::read).handler(ctx -> work(ctx, workers, 200, () -> PackViews.machines(engine.bundle())));
        router.get(API + "/crews").handler(access::read).handler(ctx -> work(ctx, workers, 200, () -> PackViews.crews(engine.bundle())));
        router.get(API + "/org-chart").handler(access::read).handler(ctx -> work(ctx, workers, 200,
                () -> PackViews.orgChart(engine.bundle())));
        router.get(API + "/scenarios").handler(access::read).handler(ctx -> work(ctx, workers, 200,
                () -> scenarios(draftParam(ctx))));
        router.get(API + "/tables").handler(access::read).handler(ctx -> work(ctx, workers, 200, () -> tables(draftParam(ctx))));
        router.get(API + "/examples/:pack").handler(access::read).handler(ctx -> work(ctx, workers, 200,
                () -> Examples.of(fixtures, ctx.pathParam("pack"))));
        router.post(API + "/try").handler(body).handler(access::read).handler(ctx -> work(ctx, workers, 200, () -> tryMessage(ctx)));
        router.get(API + "/drafts").handler(access::read).handler(ctx -> work(ctx, workers, 200, draftHandlers::list));
        router.get(API + "/drafts/:id").handler(access::read).handler(ctx -> work(ctx, workers, 200,
                () -> withImpact(draftHandlers.show(ctx.pathParam("id")))));
        router.get(API + "/drafts/:id/file").handler(access::read).handler(ctx -> work(ctx, workers, 200, () -> Json.object()
                .put("path", ctx.queryParams().get("path")).put("text", drafts.read(ctx.pathParam("id"), ctx.queryParams().get("path")))));
        // The live rules, read by every role: a rule's link opens its file here, read-only, without making a draft.
        router.get(API + "/live/file").handler(access::read).handler(ctx -> work(ctx, workers, 200, () -> liveFile(
                ctx.queryParams().get("path"))));
        router.get(API + "/drafts/:id/diff").handler(access::read).handler(ctx -> work(ctx, workers, 200,
                () -> DraftDiff.of(ctx.pathParam("id"), engine.bundle(), compiled(ctx.pathParam("id")))));
        router.get(API + "/impact/:job").handler(access::read).handler(ctx -> work(ctx, workers, 200,
                () -> impact.job(ctx.pathParam("job")).toJson()));
        router.get(API + "/activations").handler(access::read).handler(ctx -> work(ctx, workers, 200, this::history));
        router.get(API + "/rules/:pack/:rule/history").handler(access::read).handler(ctx -> work(ctx, workers, 200,
                () -> ruleHistory(ctx)));
        // The same timeline in the service API's namespace, for scripts and other tools.
        router.get(RuleHistory.PATH).handler(access::read).handler(ctx -> work(ctx, workers, 200, () -> ruleHistory(ctx)));
        router.get(API + "/events").handler(access::read).handler(events::handle);
        events.start(api.vertx(), workers);
        router.get(API + "/inbox").handler(access.write(Role.VIEWER)).handler(ctx -> work(ctx, workers, 200,
                () -> inbox.of(who(ctx))));
        router.get(API + "/me").handler(access::read).handler(ctx -> work(ctx, workers, 200, () -> me(ctx)));
        router.get(API + "/tail").handler(access::read).handler(tail::handle);
        router.get(API + "/decisions").handler(access::read).handler(ctx -> work(ctx, workers, 200, () -> traffic == null
                ? search.find(param(ctx, "decision_id"), param(ctx, "pack"), param(ctx, "rule"), param(ctx, "q"), limit(param(ctx, "limit")))
                : traffic.find(param(ctx, "decision_id"), param(ctx, "pack"), param(ctx, "rule"), param(ctx, "q"),
                        limit(param(ctx, "limit")))));

        // Writes, each with the role it needs (docs/people.md has the table; RoleMatrixTest walks it).
        router.post(API + "/drafts").handler(access.write(Role.AUTHOR)).handler(ctx -> work(ctx, workers, 201,
                () -> draftHandlers.create(who(ctx))));
        router.put(API + "/drafts/:id/file").handler(body).handler(access.write(Role.AUTHOR)).handler(ctx -> work(ctx, workers, 200,
                () -> draftHandlers.save(ctx.pathParam("id"), ctx.queryParams().get("path"), bodyJson(ctx), who(ctx))));
        router.delete(API + "/drafts/:id/file").handler(access.write(Role.AUTHOR)).handler(ctx -> work(ctx, workers, 200,
                () -> draftHandlers.deleteFile(ctx.pathParam("id"), ctx.queryParams().get("path"), ctx.queryParams().get("version"),
                        who(ctx))));
        router.delete(API + "/drafts/:id").handler(access.write(Role.AUTHOR)).handler(ctx -> work(ctx, workers, 200,
                () -> draftHandlers.discard(ctx.pathParam("id"))));
        router.post(API + "/drafts/:id/rebase").handler(body).handler(access.write(Role.AUTHOR)).handler(ctx -> work(ctx, workers, 200,
                () -> draftHandlers.rebase(ctx.pathParam("id"), bodyJson(ctx), who(ctx))));
        router.post(API + "/drafts/:id/impact").handler(body).handler(access.write(Role.VIEWER)).handler(ctx -> work(ctx, workers, 202,
                () -> startImpact(ctx)));
        router.post(API + "/drafts/:id/request-review").handler(body).handler(access.write(Role.AUTHOR)).handler(ctx -> work(ctx,
                workers, 200, () -> draftHandlers.requestReview(ctx.pathParam("id"), bodyJson(ctx), who(ctx))));
        router.post(API + "/drafts/:id/approve").handler(body).handler(access.write(Role.APPROVER)).handler(ctx -> work(ctx, workers,
                200, () -> draftHandlers.verdict(ctx.pathParam("id"), bodyJson(ctx), who(ctx), true)));
        router.post(API + "/drafts/:id/reject").handler(body).handler(access.write(Role.APPROVER)).handler(ctx -> work(ctx, workers,
                200, () -> draftHandlers.verdict(ctx.pathParam("id"), bodyJson(ctx), who(ctx), false)));
        router.post(API + "/drafts/:id/activate").handler(body).handler(access.write(Role.OPERATOR)).handler(ctx -> work(ctx, workers,
                200, () -> withMembers(draftHandlers.activate(ctx.pathParam("id"), bodyJson(ctx), who(ctx)))));
        router.post(API + "/activations/:seq/revert").handler(body).handler(access.write(Role.AUTHOR)).handler(ctx -> work(ctx,
                workers, 201, () -> draftHandlers.revert(ctx.pathParam("seq"), who(ctx))));
        router.post(API + "/activations/:seq/emergency-revert").handler(body).handler(access.write(Role.OPERATOR)).handler(ctx ->
                work(ctx, workers, 200, () -> withMembers(draftHandlers.emergencyRevert(ctx.pathParam("seq"), bodyJson(ctx),
                        who(ctx)))));
        router.post(API + "/rollback").handler(body).handler(access.write(Role.OPERATOR)).handler(ctx -> work(ctx, workers, 200,
                () -> withMembers(rollback(ctx))));
        router.route(API + "/*").handler(ctx -> Replies.error(ctx, 404, "not_found", "no such workbench endpoint: "
                + ctx.request().method() + " " + ctx.request().path()));

        router.get(PREFIX + "/lib/*").handler(StaticHandler.create("META-INF/resources/webjars").setCachingEnabled(true)
                .setDirectoryListing(false));
        router.get(PREFIX + "/*").handler(StaticHandler.create("workbench").setIndexPage("index.html")
                .setDirectoryListing(false));
    }

    private static void work(RoutingContext ctx, WorkerExecutor workers, int status, Callable<JsonNode> work) {
        workers.executeBlocking(work, false).onSuccess(json -> Replies.json(ctx, status, json))
                .onFailure(err -> Replies.failure(ctx, err));
    }

    private ObjectNode overview() {
        RuleBundle b = engine.bundle();
        ObjectNode n = Json.object();
        n.put("revision", b.revision());
        n.put("loaded_at", b.loadedAt().toString());
        b.packs().keySet().stream().sorted().forEach(n.putArray("packs")::add);
        n.set("last_refused", engine.lastRefused().map(r -> (JsonNode) Json.object().put("at", r.at().toString())
                .put("revision", r.revision()).set("errors", Checks.errors(r.errors()))).orElse(Json.MAPPER.nullNode()));
        n.put("admin_token_name", options.adminTokenName());
        return n;
    }

    private ObjectNode rules() {
        RuleBundle b = engine.bundle();
        return RulesCatalog.of(b, coverage.goldenNeverFired(liveApart()), lastFired);
    }

    /**
     * Try a message: the live rules always answer; a draft that does not compile is reported
     * beside them ({@code draft_error}, with its located errors) instead of failing the whole try.
     */
    private JsonNode tryMessage(RoutingContext ctx) throws Exception {
        JsonNode req = bodyJson(ctx);
        ObjectNode recorded = null;
        if (req.path("decision_id").isTextual()) {
            // A logged decision: tried again as it was made (its input, its state before), beside what was recorded.
            recorded = logged(req.path("decision_id").asText());
            ObjectNode asked = ((ObjectNode) req).deepCopy();
            asked.put("pack", recorded.path("pack").asText());
            asked.set("input", recorded.get("input"));
            asked.set("state_before", recorded.get("state_before"));
            asked.remove("decision_id");
            req = asked;
        }
        String draftId = req.path("draft").isTextual() && !req.path("draft").asText().isEmpty() ? req.path("draft").asText() : null;
        BundleFiles files = draftId == null ? null : drafts.files(draftId);
        String why = files == null ? null : stopped.why(files);
        if (why != null) {
            throw new WorkbenchException(422, "evaluation_too_costly", "draft " + draftId + "'s rules were stopped when they "
                    + "were last checked or run (" + why + "), so they are not run again: change the draft first");
        }
        Checks.Outcome draft = files == null ? null : checks.check(files);
        ObjectNode out;
        try {
            String pack = req.path("pack").asText("");
            out = TryMessage.run(req, liveApart(), draft != null && draft.ok() ? draft.bundle() : null,
                    () -> fixtures == null ? Json.array() : Examples.of(fixtures, pack));
        } catch (io.signalman.engine.EvaluationTooCostlyException e) {
            if (files != null) {
                stopped.mark(files, "Try: " + e.getMessage());
            }
            throw e;
        }
        if (recorded != null) {
            out.set("recorded", recorded);
            out.set("differences", TryMessage.differences(recorded.path("decision"), out.path("live")));
        }
        if (draft != null && !draft.ok()) {
            out.set("draft_error", Json.object().put("draft", draftId).put("message", "draft " + draftId + " has "
                    + draft.errors().size() + " error(s), so it decides nothing until they are fixed")
                    .set("errors", Checks.errors(draft.errors())));
        }
        return out;
    }

    /** The logged decision {@code id} (every member's log in a cluster); 404 when no log holds it. */
    private ObjectNode logged(String id) {
        if (id.length() > 200) {
            throw new WorkbenchException(400, "invalid_input", "\"decision_id\" is a logged decision's id");
        }
        ObjectNode found = traffic == null ? search.find(id, null, null, null, 1) : traffic.find(id, null, null, null, 1);
        JsonNode d = found.path("decisions").path(0);
        if (!d.isObject()) {
            throw new WorkbenchException(404, "unknown_decision", "no decision log " + (traffic == null ? "" : "of any member ")
                    + "holds decision \"" + id + "\"");
        }
        return ((ObjectNode) d).deepCopy();
    }

    /**
     * The scenarios of the live rules, or of a draft (which must compile: 422 with its errors
     * otherwise), run as {@code signalman test} runs them, in the form {@code test --json} prints.
     */
    private ObjectNode scenarios(String draftId) {
        RuleBundle b = draftId == null ? liveApart() : compiled(draftId);
        ObjectNode n = ScenarioRunner.run(b).toJson(b);
        n.put("draft", draftId);
        return n;
    }

    /** The decision tables of the live rules, or of a draft with its check's errors at their rows. */
    private ObjectNode tables(String draftId) {
        if (draftId == null) {
            RuleBundle b = engine.bundle();
            return TablesView.of(null, b.files(), java.util.List.of(), b.warnings());
        }
        BundleFiles files = drafts.files(draftId);
        Checks.Outcome c = checks.check(files);
        return TablesView.of(draftId, files, c.errors(), c.warnings());
    }

    /**
     * The live rules, for a decision nobody asked the service for: their firings are counted apart,
     * so the Rules tab's "fired" stays the count of live decisions.
     */
    private RuleBundle liveApart() {
        RuleBundle live = engine.bundle();
        RuleBundle apart = liveApart;
        if (apart == null || !apart.revision().equals(live.revision())) {
            apart = live.apart();
            liveApart = apart;
        }
        return apart;
    }

    private static String param(RoutingContext ctx, String name) {
        String v = ctx.queryParams().get(name);
        return v == null || v.isBlank() ? null : v.strip();
    }

    private static int limit(String v) {
        try {
            return v == null ? 50 : Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new WorkbenchException(400, "invalid_input", "limit is a number of decisions, at most " + DecisionSearch.MAX_LIMIT);
        }
    }

    /** {@code ?draft=ID}, or null for the live rules. */
    private static String draftParam(RoutingContext ctx) {
        String id = ctx.queryParams().get("draft");
        return id == null || id.isEmpty() ? null : id;
    }

    private RuleBundle compiled(String draftId) {
        Checks.Outcome c = checks.check(drafts.files(draftId));
        if (!c.ok()) {
            throw WorkbenchException.located(422, "draft_does_not_compile", "the draft has " + c.errors().size()
                    + " error(s); fix them first", c.errors());
        }
        return c.bundle();
    }

    private ObjectNode startImpact(RoutingContext ctx) throws Exception {
        JsonNode req = bodyJson(ctx);
        String id = ctx.pathParam("id");
        RuleBundle draft = compiled(id);
        Impact.Job job = impact.start(id, liveApart(), draft, req.path("decision_log").asBoolean(true),
                Impact.selection(req.path("since").asText(null), req.path("until").asText(null), req.path("sample").asDouble(1.0)));
        return job.toJson();
    }

    /**
     * An emergency rollback to a revision that was live before: an operator's act alone, without
     * approvals (the revision was approved when it went live, and the point is speed), marked as
     * an emergency in the activation record and the audit log.
     */
    private ObjectNode rollback(RoutingContext ctx) throws Exception {
        JsonNode req = bodyJson(ctx);
        String revision = req.path("revision").asText(null);
        return activations.activate(activations.log().revision(revision), "rollback", "revision " + revision,
                who(ctx), req.path("note").asText(null), req.path("accept_golden_changes").asBoolean(false),
                Json.object().put("emergency", true), "rolled_back");
    }

    /** The timeline of one rule: {@code :pack} and {@code :rule} (percent-decoded by the router). */
    private ObjectNode ruleHistory(RoutingContext ctx) {
        return RuleHistory.of(ctx.pathParam("pack"), ctx.pathParam("rule"), activations.log(), engine.bundle(), fired);
    }

    /** Who the request's token belongs to, and what they may do (the page shows its buttons by it). */
    private ObjectNode me(RoutingContext ctx) {
        Principal p = Api.principal(ctx);
        ObjectNode n = Json.object();
        if (p == null) {
            n.putNull("user").put("via", "loopback");
            n.putArray("roles").add(Role.VIEWER.wire());
        } else {
            n.put("user", p.name()).put("via", p.how());
            ArrayNode roles = n.putArray("roles");
            for (Role r : Role.values()) {
                if (p.has(r)) {
                    roles.add(r.wire());
                }
            }
        }
        n.put("approvals_required", people.required());
        return n;
    }

    /** The principal a write's gate let through (every write has one). */
    private static Principal who(RoutingContext ctx) {
        Principal p = Api.principal(ctx);
        if (p == null) {
            throw new IllegalStateException("a write without a principal: its route has no gate");
        }
        return p;
    }

    /**
     * The activations, newest first; each says which later activations a rollback to the rules
     * before it would undo too ({@code rollback_undoes}), so that nobody rolls back blind.
     */
    private ArrayNode history() {
        ArrayNode h = activations.log().history();
        ArrayNode newestFirst = Json.array();
        for (int i = h.size() - 1; i >= 0; i--) {
            ObjectNode rec = ((ObjectNode) h.get(i)).deepCopy();
            ArrayNode undoes = rec.putArray("rollback_undoes");
            for (int j = i + 1; j < h.size(); j++) {
                undoes.addObject().put("seq", h.get(j).path("seq").asInt()).put("kind", h.get(j).path("kind").asText())
                        .put("note", h.get(j).path("note").asText());
            }
            newestFirst.add(rec);
        }
        return newestFirst;
    }

    /**
     * A request body: JSON read with a longer string limit than decision requests have, because a
     * draft file travels as one string (its own limit, {@link Drafts#MAX_FILE_BYTES}, is checked
     * where it is saved, with a clearer answer).
     */
    private static JsonNode bodyJson(RoutingContext ctx) {
        byte[] b = Api.bodyBytes(ctx);
        JsonNode n;
        try {
            n = b.length == 0 ? Json.object() : BODIES.readTree(b);
        } catch (java.io.IOException e) {
            throw new WorkbenchException(400, "malformed_json", "the body is not JSON: " + e.getMessage());
        }
        if (n == null || !n.isObject()) {
            throw new WorkbenchException(400, "invalid_input", "send a JSON object");
        }
        return n;
    }
}
