# Shared by every bin/ script: finds the project, builds it when needed, runs Java with the
# project's JVM flags (config/jvm.options). Source it; do not run it.

CHRONEX_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

chronex_die() {
  echo "$(basename "$0"): $*" >&2
  exit 2
}

# Builds with Maven when the module (a path such as engine/core) was never built by a script, or
# any source or pom changed since.
chronex_ensure_built() {
  local module="$1" stamp="$CHRONEX_ROOT/$1/target/.built-by-bin"
  if [ ! -f "$stamp" ] || [ ! -d "$CHRONEX_ROOT/$module/target/lib" ] \
     || [ -n "$(find "$CHRONEX_ROOT" -path '*/target' -prune -o \( -name '*.java' -o -name pom.xml \) -newer "$stamp" -print -quit)" ]; then
    command -v mvn >/dev/null 2>&1 || chronex_die "Maven (mvn) is needed to build the project; install Maven 3.8+ and Java 17"
    echo "building chronex (mvn package, tests skipped)..." >&2
    mkdir -p "$CHRONEX_ROOT/$module/target"
    if ! (cd "$CHRONEX_ROOT" && mvn -B -ntp -DskipTests package) > "$CHRONEX_ROOT/$module/target/build.log" 2>&1; then
      tail -n 40 "$CHRONEX_ROOT/$module/target/build.log" >&2
      chronex_die "the build failed (whole log: $module/target/build.log)"
    fi
    touch "$stamp"
  fi
}

# JVM flags from config/jvm.options, one per line, comments skipped.
chronex_jvm_flags() {
  grep -v '^[[:space:]]*#' "$CHRONEX_ROOT/config/jvm.options" | grep -v '^[[:space:]]*$'
}

chronex_java() {
  command -v java >/dev/null 2>&1 || chronex_die "java is not on the PATH; install Java 17"
  local flags
  mapfile -t flags < <(chronex_jvm_flags)
  # shellcheck disable=SC2086 # JAVA_OPTS is a user-supplied list of flags
  exec java "${flags[@]}" ${JAVA_OPTS:-} "$@"
}

# The class path of a module as its jar and its dependency jars, in a fixed order, plus the JVM
# flags for a class-data-sharing archive of that module (target/app.jsa): the first run after a
# build writes the archive when it exits cleanly, later runs map it, which roughly halves JVM and
# Chronicle start-up (docs/recovery.md). CHRONEX_CDS=off leaves it out. Sets CHRONEX_CP and CHRONEX_CDS_FLAGS.
chronex_module_classpath() {
  local module="$1" dir="$CHRONEX_ROOT/$1/target" jar
  jar=$(ls "$dir"/chronex-*-0.1.0-SNAPSHOT.jar 2>/dev/null | head -1)
  [ -n "$jar" ] || chronex_die "no jar in $dir; run 'mvn -DskipTests package'"
  CHRONEX_CP="$jar:$(ls "$dir"/lib/*.jar | LC_ALL=C sort | tr '\n' ':')"
  CHRONEX_CDS_FLAGS=""
  if [ "${CHRONEX_CDS:-on}" != off ]; then
    local archive="$dir/app.jsa"
    if [ -f "$archive" ] && [ "$archive" -nt "$dir/.built-by-bin" ]; then
      CHRONEX_CDS_FLAGS="-XX:SharedArchiveFile=$archive -Xlog:cds=off -Xlog:cds+dynamic=off"
    else
      rm -f "$archive"
      CHRONEX_CDS_FLAGS="-XX:ArchiveClassesAtExit=$archive -Xlog:cds=off -Xlog:cds+dynamic=off"
    fi
  fi
}
