//go:build xla

package model

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/gomlx/compute"
	"github.com/gomlx/go-xla/compute/xla" // XLA through a PJRT plugin loaded at run time (dlopen: cgo)
	"github.com/gomlx/go-xla/pjrt"
	"k8s.io/klog/v2"
)

// XLALogEnv set to 1 turns on go-xla's and GoMLX's verbose log (klog's
// -v=1, on stderr): a "Compiling" and a "Compiled in" line per graph, from
// which a run's graph count and compile time are read
// (scripts/xla-compare.sh does), among much else.
const XLALogEnv = "CREDO_XLA_LOG"

func init() {
	// Nothing is ever downloaded: the autoinstall package is not linked,
	// and this keeps it off should anything else link it.
	xla.EnableAutoInstall(false)
	if os.Getenv(XLALogEnv) == "1" {
		fs := flag.NewFlagSet("klog", flag.ContinueOnError)
		klog.InitFlags(fs)
		_ = fs.Set("v", "1")
	}
	o := &xlaOpen{clients: map[string]xlaClient{}}
	xlaOpener = o.open
}

// xlaOpen keeps one backend per plugin config: a PJRT client owns device
// memory and thread pools, so every model of a process shares it.
type xlaOpen struct {
	mu      sync.Mutex
	clients map[string]xlaClient
}

type xlaClient struct {
	backend compute.Backend
	info    BackendInfo
}

func (o *xlaOpen) open(config string) (compute.Backend, BackendInfo, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if c, ok := o.clients[config]; ok && !c.backend.IsFinalized() {
		return c.backend, c.info, nil
	}
	plugin, _, _ := strings.Cut(config, ",")
	if err := findPlugin(plugin); err != nil {
		return nil, BackendInfo{}, err
	}
	be, err := xla.New(config)
	if err != nil {
		return nil, BackendInfo{}, fmt.Errorf("PJRT plugin %q: %w", plugin, err)
	}
	info := BackendInfo{Name: "xla"}
	if xb, ok := be.(*xla.Backend); ok {
		if p, err := pjrt.GetPlugin(xb.PluginName()); err == nil {
			info.Plugin = p.Path()
			major, minor := p.Version()
			info.PluginVersion = fmt.Sprintf("PJRT C API %d.%d", major, minor)
			if c, err := p.NewClient(nil); err == nil {
				info.Platform = c.Platform()
				if v := c.PlatformVersion(); v != "" && v != c.Platform() {
					info.PluginVersion += ", " + c.Platform() + " " + v
				}
				_ = c.Destroy()
			}
		}
	}
	o.clients[config] = xlaClient{backend: be, info: info}
	return be, info, nil
}

// findPlugin checks that the plugin named (an absolute path, a name such
// as "cpu" or "cuda", or "" for the first one found) exists, and says
// where it looked when it does not: go-xla's own message for a missing
// name lists no paths, and a missing absolute path fails inside dlopen.
func findPlugin(plugin string) error {
	if filepath.IsAbs(plugin) {
		st, err := os.Stat(plugin)
		switch {
		case err != nil:
			return fmt.Errorf("PJRT plugin %s: %w (make test-xla installs XLA's CPU plugin: scripts/xla-plugin.sh prints its path)", plugin, err)
		case st.IsDir():
			return fmt.Errorf("PJRT plugin %s is a directory: give the plugin's .so file", plugin)
		}
		return nil
	}
	if strings.ContainsRune(plugin, os.PathSeparator) {
		return fmt.Errorf("PJRT plugin %q: give an absolute path, or a plugin name found in the search path", plugin)
	}
	found := pjrt.AvailablePlugins()
	if _, ok := found[plugin]; ok || plugin == "" && len(found) > 0 {
		return nil
	}
	if plugin != "" { // go-xla accepts "cpu" for a versioned "cpu_v0.83.1"
		for name := range found {
			if strings.HasPrefix(name, plugin+"_") {
				return nil
			}
		}
	}
	names := make([]string, 0, len(found))
	for n, p := range found {
		names = append(names, n+" ("+p+")")
	}
	slices.Sort(names)
	have := "none"
	if len(names) > 0 {
		have = strings.Join(names, ", ")
	}
	want := "no PJRT plugin"
	if plugin != "" {
		want = fmt.Sprintf("no PJRT plugin %q", plugin)
	}
	return errors.New(want + " (pjrt_c_api_NAME_plugin.so) in " + searchPath() + "; found: " + have +
		"; pass --backend xla:/abs/path/to/plugin.so, or set " + pjrt.PJRTPluginPathsEnv)
}

// searchPath says where go-xla looks for plugins (pjrt's dynamiclib
// files): PJRT_PLUGIN_LIBRARY_PATH when set, else the user's and the
// system's go-xla folders and the dynamic linker's.
func searchPath() string {
	if v, ok := os.LookupEnv(pjrt.PJRTPluginPathsEnv); ok {
		return "$" + pjrt.PJRTPluginPathsEnv + " (" + v + ")"
	}
	home, _ := os.UserHomeDir()
	return "$" + pjrt.PJRTPluginPathsEnv + " (unset), " + filepath.Join(home, ".local/lib/go-xla") +
		", /usr/local/lib/go-xla, $LD_LIBRARY_PATH and /etc/ld.so.conf's folders"
}
