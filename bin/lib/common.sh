# Shared by every bin/ script: finds the project, builds it when needed, runs a module's main with
# the project's JVM flags (config/jvm.options). Source it; do not run it.

CHRONEX_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CHRONEX_STAMP="$CHRONEX_ROOT/target/.built-by-bin"

chronex_die() {
  echo "$(basename "$0"): $*" >&2
  exit 2
}

# True when a source, resource or pom changed since the last build by a script (or there was none).
chronex_stale() {
  [ ! -f "$CHRONEX_STAMP" ] || [ -n "$(find "$CHRONEX_ROOT" \( -path '*/target' -o -path "$CHRONEX_ROOT/data" -o -path '*/.git' \) -prune -o \
      \( -path '*/src/*' -o -name pom.xml \) -type f -newer "$CHRONEX_STAMP" -print -quit)" ]
}

# Builds the whole project once (mvn package, tests skipped) when it is stale. One stamp for the
# project, and a lock, so scripts started together (engine and gateway from one script) build once.
chronex_ensure_built() {
  [ -z "${CHRONEX_CHECKED:-}" ] || return 0   # once per script: the tree walk costs start-up time
  CHRONEX_CHECKED=1
  chronex_stale || return 0
  command -v mvn >/dev/null 2>&1 || chronex_die "Maven (mvn) is needed to build the project; install Maven 3.8+ and Java 17"
  mkdir -p "$CHRONEX_ROOT/target"
  (
    # Without flock (util-linux) two scripts started together may both build; each build is whole.
    ! command -v flock >/dev/null 2>&1 || flock 9
    chronex_stale || exit 0
    echo "building chronex (mvn package, tests skipped)..." >&2
    local started
    started="$CHRONEX_ROOT/target/.build-started"
    touch "$started"
    if ! (cd "$CHRONEX_ROOT" && mvn -B -ntp -DskipTests package) > "$CHRONEX_ROOT/target/build.log" 2>&1; then
      tail -n 40 "$CHRONEX_ROOT/target/build.log" >&2
      chronex_die "the build failed (whole log: target/build.log)"
    fi
    # The stamp takes the time the build started: an edit made during the build still counts as new.
    mv -f "$started" "$CHRONEX_STAMP"
  ) 9> "$CHRONEX_ROOT/target/.build.lock" || exit $?
}

# JVM flags from config/jvm.options, one per line, comments skipped.
chronex_jvm_flags() {
  grep -v '^[[:space:]]*#' "$CHRONEX_ROOT/config/jvm.options" | grep -v '^[[:space:]]*$'
}

# The class path of a module (a path such as engine/process): its jar and its dependency jars, in a
# fixed order. Sets CHRONEX_CP.
chronex_module_classpath() {
  local dir="$CHRONEX_ROOT/$1/target" jar
  # The jar is named after the artifact, with no version (the root pom's finalName); a versioned
  # jar left by an older build is not it.
  jar=$(ls "$dir"/chronex-*.jar 2>/dev/null | grep -v -- '-[0-9][^/]*\.jar$' | head -1 || true)
  [ -n "$jar" ] && [ -d "$dir/lib" ] || chronex_die "no jar or lib/ in $dir; run 'mvn -DskipTests package'"
  CHRONEX_CP="$jar:$(ls "$dir"/lib/*.jar | LC_ALL=C sort | paste -sd: -)"
}

# Runs a main class of a module in this process's place: chronex_run MODULE CLASS [ARGS...].
# JAVA_OPTS adds JVM flags; the project root is passed as -Dchronex.root.
chronex_run() {
  local module="$1" main="$2"
  shift 2
  chronex_ensure_built
  chronex_module_classpath "$module"
  command -v java >/dev/null 2>&1 || chronex_die "java is not on the PATH; install Java 17"
  local flags
  mapfile -t flags < <(chronex_jvm_flags)
  # shellcheck disable=SC2086 # JAVA_OPTS is a user-supplied list of flags
  exec java "${flags[@]}" -Dchronex.root="$CHRONEX_ROOT" ${JAVA_OPTS:-} -cp "$CHRONEX_CP" "$main" "$@"
}

# A class-data-sharing archive for a module (target/app.jsa), which roughly halves JVM and
# Chronicle start-up (docs/recovery.md): after each build it is written once by running the given
# training class (a short run through start-up, with the JVM flags in JAVA_OPTS) under
# -XX:ArchiveClassesAtExit; later runs map it. Not written at the end of a real run: on Java 17 that
# can archive methods the JIT then never compiles. CHRONEX_CDS=off leaves it out. Call after
# chronex_ensure_built; sets CHRONEX_CDS_FLAGS (empty when there is no archive).
chronex_class_archive() {
  local module="$1" training="$2" dir="$CHRONEX_ROOT/$1/target"
  shift 2
  CHRONEX_CDS_FLAGS=""
  [ "${CHRONEX_CDS:-on}" != off ] || return 0
  chronex_module_classpath "$module"
  local archive="$dir/app.jsa" quiet="-Xlog:cds=off -Xlog:cds+dynamic=off"
  if [ ! -f "$archive" ] || [ ! "$archive" -nt "$CHRONEX_STAMP" ]; then
    rm -f "$archive"
    echo "writing the class-data archive for $module (once per build)..." >&2
    local flags partial="$archive.$$"
    mapfile -t flags < <(chronex_jvm_flags)
    # shellcheck disable=SC2086 # JAVA_OPTS is a list of flags
    if java "${flags[@]}" ${JAVA_OPTS:-} -XX:ArchiveClassesAtExit="$partial" $quiet -cp "$CHRONEX_CP" "$training" "$@" \
         > "$dir/class-archive.log" 2>&1 && [ -s "$partial" ]; then
      mv -f "$partial" "$archive"
    else
      rm -f "$partial"
      echo "$(basename "$0"): could not write the class-data archive (see $module/target/class-archive.log); starting without it" >&2
      return 0
    fi
  fi
  CHRONEX_CDS_FLAGS="-XX:SharedArchiveFile=$archive $quiet"
}

# Processes' output without SLF4J's INFO lines (Chronicle's start-up chatter, from any thread).
chronex_quiet() {
  grep -v '^\[[^]]*\] INFO' || true
}

# The port in a gateway's "listening on HOST:PORT" line in FILE.
chronex_listening_port() {
  sed -n 's/.*listening on [^:]*:\([0-9]*\) .*/\1/p' "$1" | head -1
}

# Funds the accounts of config/engine.yaml (the demo's FIX sessions, accounts 1-4, and the load generator's LOAD1..8,
# accounts 101-108) in data directory DIR: bin/admin --script config/demo-funding.admin journals its deposits and waits
# for each answer. Quiet when every deposit is accepted; otherwise prints bin/admin's output and the script dies. The
# engine (or, in cluster mode, the gateway host's bridge) must be running; each reference is used once per data
# directory, so fund a directory once. chronex_fund DIR [bin/admin options such as --timeout 30s]. Sets
# CHRONEX_FUNDED to the number of deposits.
chronex_fund() {
  local dir="$1" script="$CHRONEX_ROOT/config/demo-funding.admin" output
  shift
  if ! output=$("$CHRONEX_ROOT/bin/admin" --data-dir "$dir" --script "$script" "$@" 2>&1); then
    echo "$output" | chronex_quiet | tail -n 40 >&2
    chronex_die "funding the accounts failed: bin/admin --data-dir $dir --script config/demo-funding.admin (see above)"
  fi
  CHRONEX_FUNDED=$(grep -c '^[[:space:]]*[a-z]' "$script")
}

# Waits until FILE contains TEXT (up to 30 s); otherwise prints FILE and dies naming WHAT.
chronex_wait_for() {
  local file="$1" text="$2" what="$3"
  for _ in $(seq 1 300); do grep -q "$text" "$file" 2>/dev/null && return 0; sleep 0.1; done
  cat "$file" >&2
  chronex_die "$what did not start"
}
